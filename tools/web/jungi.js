// The explorer's Jungi module (a set of Jungi tables, gonu-jungi-query/1): a 9x9 board of
// squares, the promotion zones shaded (ranks 7-9 South's, 1-3 North's), the pieces in the
// notation's letters (upper case South, lower case North, '+' before a promoted piece). A tap on
// a piece of the side to move colours its targets by the value of the move there; a tap on a
// target plays it, or where several moves share it (an Emperor's step, two-steps and leap;
// promote or not) asks which. The board editor places pieces from a palette (either side,
// promoted or not), mirrors the board (the colour flip) and clears it; the server refuses what
// gonu refuses. app.js (the shell) calls gonuGames.jungi's functions.
'use strict';

window.gonuGames = window.gonuGames || {};

(() => {
const SQ = 48, M = 22, N = 9, FILES = 'abcdefghi';
const LETTERS = 'KQPNEMSCRLO';

// The cells of a position text, rank 9 first: cells[9 - rank][file] is '' or a piece token.
function parseCells(text) {
  const ranks = text.split(' ')[0].split('/');
  return Array.from({ length: N }, (_, i) => {
    const row = [];
    for (const t of (ranks[i] || '').match(/\d|\+?[A-Za-z]/g) || [])
      if (/\d/.test(t)) for (let k = 0; k < Number(t); ++k) row.push(''); else row.push(t);
    while (row.length < N) row.push('');
    return row.slice(0, N);
  });
}

const isSouth = (piece) => piece.replace('+', '') === piece.replace('+', '').toUpperCase();
// The side's id as the answers name it: 'south' or 'north'.
const sideOf = (piece) => (isSouth(piece) ? 'south' : 'north');
const squareOf = (file, rank) => FILES[file] + rank;
const cellAt = (cells, sq) => cells[N - Number(sq[1])][FILES.indexOf(sq[0])];
// A move's squares as written: from, (middle), to; the Emperor's "e5-e6-e5" ends where it began.
const squaresOf = (move) => move.match(/[a-i][1-9]/g) || [];
const fromOf = (move) => squaresOf(move)[0];
const toOf = (move) => { const s = squaresOf(move); return s[s.length - 1]; };
const inZone = (side, rank) => (side === 'south' ? rank >= 7 : rank <= 3);

// Where a square is drawn (its top left corner): rank 9 at the top, file a on the left, or the
// other way round when the board is flipped.
function squareXY(sq) {
  const file = FILES.indexOf(sq[0]), rank = Number(sq[1]);
  const col = S.flipped ? N - 1 - file : file, row = S.flipped ? rank - 1 : N - rank;
  return [M + col * SQ, M + row * SQ];
}

function movesFrom(sq) { return S.answer.moves.filter((m) => fromOf(m.move) === sq); }
function movesTo(from, to) { return S.answer.moves.filter((m) => fromOf(m.move) === from && toOf(m.move) === to); }

// Whether a move promotes: its SAN says so ("=+Q"), or a '+' suffix (optional promotion), or an
// unpromoted piece ends in its zone under compulsory promotion.
function promotes(m, piece) {
  if (m.san) return m.san.includes('=');
  if (m.move.endsWith('+')) return true;
  const optional = /optional/.test((S.table.rules && S.table.rules.id) || '');
  return !optional && piece && !piece.startsWith('+') && inZone(sideOf(piece), Number(toOf(m.move)[1]));
}

function draw(svg) {
  const cells = S.edit ? S.edit.cells : parseCells(S.answer.position);
  const size = 2 * M + N * SQ;
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  el('rect', { class: 'bg', x: 0, y: 0, width: size, height: size }, svg);
  const targets = S.edit ? new Map() : targetMap();
  const marked = !S.edit && S.preview ? squaresOf(S.preview) : [];
  const last = !S.edit && S.ply ? squaresOf(S.line[S.ply - 1]) : [];
  for (let rank = N; rank >= 1; --rank) {
    for (let file = 0; file < N; ++file) {
      const sq = squareOf(file, rank), [x, y] = squareXY(sq), piece = cellAt(cells, sq);
      const zone = rank >= 7 ? ' zone-south' : rank <= 3 ? ' zone-north' : '';
      const g = el('g', { class: 'square' + zone, tabindex: 0, role: 'button', 'data-square': sq, 'data-piece': piece }, svg);
      if (sq === S.selected) g.classList.add('selected');
      const t = targets.get(sq);
      let cls = 'jungi-square';
      if (t) cls += ' target ' + valueClass(t[0].value);
      else if (marked.includes(sq)) cls += ' marked ' + valueClass(previewValue());
      el('rect', { x, y, width: SQ, height: SQ, class: cls }, g);
      if (last.includes(sq)) el('rect', { class: 'last', x: x + 2, y: y + 2, width: SQ - 4, height: SQ - 4 }, g);
      if (piece) drawPiece(g, x, y, piece);
      if (t) drawTargetTag(g, x, y, t, cellAt(cells, S.selected));
      g.setAttribute('aria-label', squareLabel(sq, piece, t));
      g.addEventListener('click', () => tap(sq));
      g.addEventListener('keydown', (ev) => squareKey(ev, sq));
    }
  }
  drawLabels(svg);
}

function previewValue() {
  const m = S.answer.moves.find((x) => x.move === S.preview);
  return m ? m.value : 'DRAW';
}

function drawPiece(g, x, y, piece) {
  const south = isSouth(piece), promoted = piece.startsWith('+');
  el('circle', { class: 'token ' + (south ? 'south' : 'north') + (promoted ? ' promoted' : ''),
    cx: x + SQ / 2, cy: y + SQ / 2, r: SQ * 0.4 }, g);
  el('text', { x: x + SQ / 2, y: y + SQ / 2, class: 'jungi-piece ' + (south ? 'south' : 'north') }, g, piece);
}

// The moves of the picked piece by target square, best first (the server's order).
function targetMap() {
  const out = new Map();
  if (!S.selected) return out;
  for (const m of movesFrom(S.selected)) {
    const to = toOf(m.move);
    if (!out.has(to)) out.set(to, []);
    out.get(to).push(m);
  }
  return out;
}

// The best move's value at a target ("W7", "D", "L12"), '+' where it promotes, '…' where the
// target has more than one move.
function drawTargetTag(g, x, y, moves, piece) {
  const m = moves[0];
  const text = shortValue(m.value, m.distance) + (promotes(m, piece) ? '+' : '') + (moves.length > 1 ? '…' : '');
  const w = Math.min(SQ - 2, 8 + 7 * text.length);
  const tag = el('g', { class: 'tag', 'data-move': m.move }, g);
  el('rect', { class: valueClass(m.value), x: x + SQ - w - 1, y: y + 1, width: w, height: 16, rx: 4 }, tag);
  el('text', { x: x + SQ - w / 2 - 1, y: y + 9 }, tag, text);
}

function drawLabels(svg) {
  for (let i = 0; i < N; ++i) {
    const rank = S.flipped ? i + 1 : N - i, file = S.flipped ? N - 1 - i : i;
    el('text', { class: 'label', x: M / 2, y: M + i * SQ + SQ / 2 }, svg, String(rank));
    el('text', { class: 'label', x: M + i * SQ + SQ / 2, y: M + N * SQ + M / 2 }, svg, FILES[file]);
  }
}

function squareLabel(sq, piece, targetMoves) {
  let s = sq + ', ' + (piece ? (isSouth(piece) ? 'South ' : 'North ') + pieceName(piece) : 'empty');
  if (piece && sideOf(piece) === S.answer.side_to_move && movesFrom(sq).length) s += ', can move';
  if (targetMoves) s += ', target of ' + S.selected + ': ' + valueText(targetMoves[0].value, targetMoves[0].distance);
  return s;
}

function pieceName(piece) {
  const p = (S.rules && S.rules.pieces || []).find((x) => x.letter === piece.replace('+', '').toUpperCase());
  if (!p) return piece;
  return piece.startsWith('+') ? p.promoted : p.name;
}

function tap(sq) {
  if (S.edit) editSquare(sq);
  else clickSquare(sq);
}

// A tap on a target plays its move or asks which; a tap on a piece of the side to move picks it
// (again: drops it, unless it has moves that end where they began, which are then offered).
function clickSquare(sq) {
  hideChoice();
  if (S.selected) {
    const choices = movesTo(S.selected, sq);
    if (choices.length === 1) return playMove(choices[0].move, true);
    if (choices.length > 1) return askChoice(choices);
  }
  const piece = $('board').querySelector(`[data-square="${sq}"]`).dataset.piece;
  const mine = piece && sideOf(piece) === S.answer.side_to_move && movesFrom(sq).length;
  S.selected = mine && S.selected !== sq ? sq : null;
  S.preview = null;
  drawBoard();
}

// The moves that share a target, each a button (SAN and value); Cancel drops the choice.
function askChoice(moves) {
  const box = $('choice');
  box.replaceChildren();
  const p = document.createElement('p');
  p.textContent = 'More than one move ends here: choose one.';
  box.appendChild(p);
  for (const m of moves) {
    const b = document.createElement('button');
    b.type = 'button';
    b.className = valueClass(m.value);
    b.dataset.move = m.move;
    b.textContent = `${m.san || m.move}: ${valueText(m.value, m.distance)}`;
    b.addEventListener('click', () => { hideChoice(); playMove(m.move, true); });
    box.appendChild(b);
  }
  const cancel = document.createElement('button');
  cancel.type = 'button';
  cancel.textContent = 'Cancel';
  cancel.addEventListener('click', hideChoice);
  box.appendChild(cancel);
  box.hidden = false;
  box.querySelector('button').focus({ preventScroll: true });
}

function hideChoice() {
  const box = $('choice');
  if (box) { box.hidden = true; box.replaceChildren(); }
}

// Arrow keys walk the squares as drawn; Enter and Space tap.
function squareKey(ev, sq) {
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[ev.key];
  if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    tap(sq);
  } else if (step) {
    ev.preventDefault();
    ev.stopPropagation();
    const turn = S.flipped ? -1 : 1;
    const file = Math.min(N - 1, Math.max(0, FILES.indexOf(sq[0]) + turn * step[0]));
    const rank = Math.min(N, Math.max(1, Number(sq[1]) + turn * step[1]));
    $('board').querySelector(`[data-square="${squareOf(file, rank)}"]`).focus();
  }
}

// ---- The legend: the pieces on the board, their moves and promoted forms (GET /api/rules) -----

function drawLegend() {
  const box = $('piece-legend');
  box.replaceChildren();
  if (!S.rules || !S.answer) return;
  const cells = S.edit ? S.edit.cells : parseCells(S.answer.position);
  const present = new Set(cells.flat().filter((p) => p).map((p) => p.replace('+', '').toUpperCase()));
  const zones = document.createElement('p');
  zones.className = 'help';
  zones.innerHTML = '<span class="zone-swatch zone-south"></span> ranks 7–9: South promotes there; ' +
    '<span class="zone-swatch zone-north"></span> ranks 1–3: North promotes there.';
  box.appendChild(zones);
  const dl = document.createElement('dl');
  for (const p of S.rules.pieces) {
    if (!present.has(p.letter)) continue;
    const dt = document.createElement('dt');
    dt.textContent = `${p.letter} ${p.name}`;
    const dd = document.createElement('dd');
    dd.textContent = `${p.moves}. Promoted: +${p.letter} ${p.promoted}: ${p.promoted_moves}.`;
    dl.append(dt, dd);
  }
  box.appendChild(dl);
}

// ---- The board editor: a palette (a piece of either side, promoted or not, or empty) ----------

function editOpen(answer) {
  return { cells: parseCells(answer.position), side: answer.side_to_move === 'south' ? 's' : 'n',
    pen: { letter: 'K', south: true, promoted: false } };
}

function editText(edit) {
  const ranks = edit.cells.map((row) => {
    let out = '', run = 0;
    for (const c of row) {
      if (!c) { ++run; continue; }
      if (run) out += run;
      run = 0;
      out += c;
    }
    return out + (run ? run : '');
  });
  return ranks.join('/') + ' ' + edit.side + ' -';
}

const penPiece = (pen) => (pen.promoted ? '+' : '') + (pen.south ? pen.letter : pen.letter.toLowerCase());

// A tap puts the pen's piece there, or empties the square if it holds that piece already.
function editSquare(sq) {
  const row = N - Number(sq[1]), file = FILES.indexOf(sq[0]);
  const piece = S.edit.pen.letter === '' ? '' : penPiece(S.edit.pen);
  S.edit.cells[row][file] = S.edit.cells[row][file] === piece ? '' : piece;
  showEditor();
}

// The colour flip: each piece to the other side, rank r to rank 10 - r; the other side to move.
function editMirror(edit) {
  edit.cells = edit.cells.slice().reverse().map((row) => row.map((c) => {
    if (!c) return c;
    const base = c.replace('+', '');
    return (c.startsWith('+') ? '+' : '') + (base === base.toUpperCase() ? base.toLowerCase() : base.toUpperCase());
  }));
  edit.side = edit.side === 's' ? 'n' : 's';
}

// The palette: one button a piece (and "empty"), a side and a promoted toggle, and Mirror.
function editTools(box) {
  const pen = S.edit.pen;
  const button = (text, pressed, onClick, attrs = {}) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.setAttribute('aria-pressed', String(pressed));
    for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
    b.addEventListener('click', () => { onClick(); showEditor(); });
    box.appendChild(b);
    return b;
  };
  for (const letter of LETTERS) {
    const shown = penPiece(Object.assign({}, pen, { letter }));
    button(shown, pen.letter === letter, () => { pen.letter = letter; },
      { 'data-pen': letter, class: 'pen ' + (pen.south ? 'south' : 'north'), title: pieceName(shown) });
  }
  button('empty', pen.letter === '', () => { pen.letter = ''; }, { 'data-pen': '', class: 'pen' });
  button(pen.south ? 'South piece' : 'North piece', false, () => { pen.south = !pen.south; }, { id: 'edit-pen-side' });
  button('promoted', pen.promoted, () => { pen.promoted = !pen.promoted; }, { id: 'edit-pen-promoted' });
  button('Mirror', false, () => editMirror(S.edit), { id: 'edit-mirror', title: 'the colour flip: sides swapped, board turned top to bottom' });
}

// ---- The material browser: every material of the set with its shares and longest win ---------

function percent(part, whole) { return whole ? (100 * part / whole).toFixed(1) + '%' : '–'; }

// "W 61.2% D 0.0% L 38.8%" for one side to move.
function shares(m, side) {
  const n = m.wins[side] + m.draws[side] + m.losses[side];
  return `W ${percent(m.wins[side], n)} D ${percent(m.draws[side], n)} L ${percent(m.losses[side], n)}`;
}

async function drawExtras() {
  const set = S.table.id, table = $('materials');
  if (table.dataset.set === set) return;
  table.dataset.set = set;
  let list;
  try {
    list = await (await fetch('/api/materials?table=' + encodeURIComponent(set))).json();
  } catch (e) {
    $('materials-note').textContent = 'The list of endgames could not be read: ' + e.message;
    return;
  }
  if (table.dataset.set !== set) return;  // another set was chosen meanwhile
  $('materials-note').textContent = `${list.materials.length.toLocaleString('en')} endgames under the reading ` +
    `"${list.rules.text}". Values are for the side to move; a link opens the endgame's longest win.`;
  table.replaceChildren();
  const head = table.createTHead().insertRow();
  for (const h of ['Endgame', 'Positions', 'South to move', 'North to move', 'Longest win']) {
    const th = document.createElement('th');
    th.textContent = h;
    head.appendChild(th);
  }
  const body = table.createTBody();
  for (const m of list.materials) {
    const row = body.insertRow();
    row.dataset.material = m.material;
    const name = row.insertCell();
    if (m.error) {
      name.textContent = m.material;
      const why = row.insertCell();
      why.colSpan = 4;
      why.className = 'error';
      why.textContent = m.error;
      continue;
    }
    const a = document.createElement('a');
    a.textContent = m.material;
    a.href = '?' + new URLSearchParams({ table: set, position: m.example }).toString();
    a.addEventListener('click', (ev) => { ev.preventDefault(); setStart(m.example); });
    name.appendChild(a);
    row.insertCell().textContent = m.positions.toLocaleString('en');
    row.insertCell().textContent = shares(m, 0);
    row.insertCell().textContent = shares(m, 1);
    row.insertCell().textContent = m.longest_win < 0 ? '–' : m.longest_win + ' plies';
  }
}

gonuGames.jungi = {
  sides: [{ id: 'south', name: 'South', short: 'South' }, { id: 'north', name: 'North', short: 'North' }],
  help: 'Upper case South, lower case North, + before a promoted piece, a digit a run of empty squares, ' +
    'ranks 9 to 1 separated by /, then the side to move (s or n) and the en-passant field (-); ' +
    'the position picks its table by its material. An example:',
  editHelp: 'Pick a piece (side, promoted or not) or "empty", then tap squares; a tap on the same piece empties the square.',
  hasStart: false,
  optionText: (t) => `${t.id} (Jungi, ${t.materials.toLocaleString('en')} endgames)`,
  moveName: (m) => m.san || m.move,
  drawBoard: draw,
  drawLegend,
  drawExtras,
  editOpen,
  editText,
  editSide: (edit) => { edit.side = edit.side === 's' ? 'n' : 's'; },
  editSideName: (edit) => (edit.side === 's' ? 'South' : 'North'),
  editClear: (edit) => { edit.cells = edit.cells.map((row) => row.map(() => '')); },
  editTools,
};
})();
