// The gonu explorer's page logic. The state is a game record (a table, a start position, a line
// of moves and how many of them are played); everything on the page is drawn from it and from the
// server's answers (gonu-query/1 for the position, gonu-line/1 for the chart), and the address
// holds it (and the flip), so a reload or a shared link shows the same thing. A superko proof
// (gonu serve --certificate) is chosen like a table: its answers (gonu-certificate-query/1) are
// drawn the same way (fromProof), the strategy answering every move of the user's at once. The server checks
// every move and every position; the page only turns taps into move names, and the board editor's
// points into position text. The page never scrolls the window by itself: on a phone the board
// must stay in view.
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';
const CELL = 64, MARGIN = 44;
const MAX_ENGINE_RUN = 200;  // perfect play for both sides stops here (a drawn game never ends)

const S = {
  tables: [],       // gonu-tables/1 entries, then gonu-certificates/1 entries (kind 'certificate')
  table: null,      // the chosen one
  start: null,      // position text, or null for the table's root
  line: [],         // the game record's moves
  ply: 0,           // how many of them are played
  answer: null,     // gonu-query/1 of the position after `ply` moves
  plies: null,      // gonu-line/1 plies of the whole line
  selected: null,   // the square of the picked piece
  flipped: false,   // the board turned round: White's home rank at the top
  edit: null,       // the board editor's {grid, side} while it is open, else null
  preview: null,    // the move the pointer or focus is on in the list
  autoplay: false,  // perfect play may answer now (after a move or a switch; not after undo)
  engineRun: 0,     // perfect-play moves in a row: playing both sides, a draw would never end
  seq: 0,           // number of the latest render: a late answer never draws over a newer one
};
const cache = new Map();
const $ = (id) => document.getElementById(id);

// ---- The server -------------------------------------------------------------------------------

const isProof = () => S.table.kind === 'certificate';

async function api(path, history) {
  const body = isProof() ? { certificate: S.table.id, history: history.join(' ') }
    : { table: S.table.id, history: history.join(' ') };
  if (S.start !== null) body.position = S.start;
  else if (isJungi()) body.position = S.table.root;  // a Jungi table has no root: its example
  const params = new URLSearchParams(body);
  const url = path + '?' + params.toString();
  if (cache.has(url)) return cache.get(url);
  // Long records go in a body: the request line is limited.
  const res = url.length < 6000 ? await fetch(url)
    : await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(json.error || ('HTTP ' + res.status));
  if (cache.size > 2000) cache.clear();
  cache.set(url, json);
  return json;
}

// ---- Notation ---------------------------------------------------------------------------------

function boardSize(table) {
  const [rows, cols] = table.rules.board.split('x').map(Number);
  return { rows, cols };
}

function fileName(f) {
  return f < 26 ? String.fromCharCode(97 + f) : String.fromCharCode(65 + f - 26);
}

function squareName(f, r) { return fileName(f) + (r + 1); }

function parseSquare(name) {
  const c = name.charCodeAt(0);
  const f = c >= 97 ? c - 97 : c - 65 + 26;
  return { f, r: Number(name.slice(1)) - 1 };
}

// The points of a position text, top rank first: grid[r][f] is 'x', 'w' or '.', r counted from 1.
function parseBoard(text, rows) {
  const grid = [];
  const ranks = text.split(' ')[0].split('/');
  ranks.forEach((rank, i) => {
    let row = '';
    rank.replace(/(\d+)|([xw.])/g, (m, run, c) => { row += run ? '.'.repeat(Number(run)) : c; return m; });
    grid[rows - 1 - i] = row;
  });
  return grid;
}

function parseMove(text) {
  const m = /^([a-zA-Z]\d+)-([a-zA-Z]\d+)/.exec(text);
  return m ? { from: m[1], to: m[2] } : null;
}

const valueClass = (v) => v.toLowerCase();
// A proof's values have no distance (null): WIN or LOSS alone; a Jungi move into a material whose
// table is absent is UNKNOWN.
function valueText(v, d) { return v === 'DRAW' || v === 'UNKNOWN' ? v : d === null ? v : v + ' in ' + d; }
function shortValue(v, d) { return v === 'DRAW' ? 'D' : v[0] + (d === null ? '' : d); }
const sideName = (s) => (s === 'black' ? 'Black (x)' : s === 'white' ? 'White (w)' : s);
const isJungi = () => S.table && S.table.game === 'jungi';

// ---- SVG helpers ------------------------------------------------------------------------------

function el(name, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// Where a point is drawn: rank 1 at the bottom, file a on the left, or the other way round when
// the board is flipped.
function pointXY(sq) {
  const { rows, cols } = boardSize(S.table);
  const { f, r } = parseSquare(sq);
  const col = S.flipped ? cols - 1 - f : f, row = S.flipped ? r : rows - 1 - r;
  return [MARGIN + col * CELL, MARGIN + row * CELL];
}

// ---- The board --------------------------------------------------------------------------------

function drawBoard() {
  if (isJungi()) return drawJungiBoard();
  const svg = $('board');
  const { rows, cols } = boardSize(S.table);
  const focused = svg.contains(document.activeElement) ? document.activeElement.dataset.square : null;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${2 * MARGIN + (cols - 1) * CELL} ${2 * MARGIN + (rows - 1) * CELL}`);
  drawGrid(svg, rows, cols);
  if (!S.edit) drawLastMove(svg);
  drawPoints(svg, rows, cols);
  if (!S.edit) drawMoves(svg);
  if (focused) svg.querySelector(`[data-square="${focused}"]`).focus({ preventScroll: true });
}

// A Jungi position (9x9 squares, READING.md's letters: upper case South, lower case North, '+'
// before a promoted piece), with the squares of the move the pointer is on in the move list
// coloured by its value.
function drawJungiBoard() {
  const svg = $('board'), n = 9, size = CELL * 0.8, m = MARGIN / 2;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${2 * m + n * size} ${2 * m + n * size}`);
  const ranks = S.answer.position.split(' ')[0].split('/');
  const pv = S.preview ? S.answer.moves.find((x) => x.move === S.preview) : null;
  const marked = pv ? pv.move.match(/[a-i][1-9]/g) : [];
  for (let row = 0; row < n; ++row) {
    const rank = S.flipped ? row + 1 : n - row;
    const cells = [];
    for (const t of (ranks[n - rank] || '').match(/\d|\+?[A-Za-z]/g) || [])
      if (/\d/.test(t)) for (let k = 0; k < Number(t); ++k) cells.push(''); else cells.push(t);
    for (let col = 0; col < n; ++col) {
      const file = S.flipped ? n - 1 - col : col, sq = 'abcdefghi'[file] + rank;
      const x = m + col * size, y = m + row * size;
      const cls = 'jungi-square' + (marked.includes(sq) ? ' marked ' + valueClass(pv.value) : '');
      el('rect', { x, y, width: size, height: size, class: cls, 'data-square': sq }, svg);
      const piece = cells[file] || '';
      if (piece) el('text', { x: x + size / 2, y: y + size * 0.68, class: 'jungi-piece ' + (piece.replace('+', '') === piece.replace('+', '').toUpperCase() ? 'south' : 'north'), 'text-anchor': 'middle' }, svg, piece);
    }
    el('text', { x: m / 2, y: m + row * size + size * 0.6, class: 'label', 'text-anchor': 'middle' }, svg, String(rank));
  }
  for (let col = 0; col < n; ++col)
    el('text', { x: m + col * size + size / 2, y: 2 * m + n * size - 4, class: 'label', 'text-anchor': 'middle' }, svg, 'abcdefghi'[S.flipped ? n - 1 - col : col]);
}

function drawGrid(svg, rows, cols) {
  const defs = el('defs', {}, svg);
  for (const v of ['win', 'draw', 'loss']) {
    const m = el('marker', { id: 'head-' + v, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 4,
      markerHeight: 4, orient: 'auto-start-reverse' }, defs);
    el('path', { d: 'M0,0 L10,5 L0,10 z', class: 'mark-' + v }, m);
  }
  el('rect', { class: 'bg', x: 0, y: 0, width: 2 * MARGIN + (cols - 1) * CELL, height: 2 * MARGIN + (rows - 1) * CELL }, svg);
  const g = el('g', { class: 'grid' }, svg);
  const x1 = MARGIN, x2 = MARGIN + (cols - 1) * CELL, y1 = MARGIN, y2 = MARGIN + (rows - 1) * CELL;
  for (let r = 0; r < rows; ++r) el('line', { x1, x2, y1: y1 + r * CELL, y2: y1 + r * CELL }, g);
  for (let f = 0; f < cols; ++f) el('line', { x1: x1 + f * CELL, x2: x1 + f * CELL, y1, y2 }, g);
  for (let f = 0; f < cols; ++f) el('text', { class: 'label', x: pointXY(squareName(f, 0))[0], y: y2 + MARGIN * 0.62 }, svg, fileName(f));
  for (let r = 0; r < rows; ++r) el('text', { class: 'label', x: MARGIN * 0.38, y: pointXY(squareName(0, r))[1] }, svg, String(r + 1));
}

function drawLastMove(svg) {
  const h = S.answer.history;
  const m = h.length ? parseMove(h[h.length - 1]) : null;
  if (!m) return;
  for (const sq of [m.from, m.to]) {
    const [x, y] = pointXY(sq);
    el('circle', { class: 'last', cx: x, cy: y, r: CELL * 0.4 }, svg);
  }
}

// The moves of a square, and what the side to move can do from it.
function movesFrom(sq) { return S.answer.moves.filter((m) => parseMove(m.move).from === sq); }
function movesTo(from, to) { return S.answer.moves.filter((m) => { const p = parseMove(m.move); return p.from === from && p.to === to; }); }

function drawPoints(svg, rows, cols) {
  const grid = S.edit ? S.edit.grid.map((rank) => rank.join('')) : parseBoard(S.answer.position, rows);
  const mover = S.answer.side_to_move === 'black' ? 'x' : 'w';
  for (let r = rows - 1; r >= 0; --r) {
    for (let f = 0; f < cols; ++f) {
      const sq = squareName(f, r), c = grid[r][f];
      const [x, y] = pointXY(sq);
      const g = el('g', { class: 'point', tabindex: 0, role: 'button', 'data-square': sq, 'data-piece': c }, svg);
      if (sq === S.selected) g.classList.add('selected');
      el('circle', { class: 'hit', cx: x, cy: y, r: CELL * 0.45 }, g);
      if (c !== '.') el('circle', { class: 'piece ' + (c === 'x' ? 'black' : 'white'), cx: x, cy: y, r: CELL * 0.3 }, g);
      g.setAttribute('aria-label', pointLabel(sq, c, mover));
      g.addEventListener('click', () => tapPoint(sq));
      g.addEventListener('keydown', (ev) => pointKey(ev, f, r));
    }
  }
}

function pointLabel(sq, c, mover) {
  let s = sq + ', ' + (c === 'x' ? 'Black piece' : c === 'w' ? 'White piece' : 'empty');
  if (c === mover && movesFrom(sq).length) s += ', can move';
  if (S.selected) {
    const to = movesTo(S.selected, sq);
    if (to.length) s += ', target of ' + S.selected + ': ' + valueText(to[0].value, to[0].distance);
  }
  return s;
}

// The arrows: every legal move, or those of the picked piece, or the one the list points at.
function drawMoves(svg) {
  let shown = S.answer.moves;
  if (S.preview) shown = shown.filter((m) => m.move === S.preview);
  else if (S.selected) shown = movesFrom(S.selected);
  const tags = el('g', {}, svg);
  for (const m of shown) {
    const p = parseMove(m.move), v = valueClass(m.value);
    const [x1, y1] = pointXY(p.from), [x2, y2] = pointXY(p.to);
    const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy), ux = dx / len, uy = dy / len;
    el('line', { class: 'arrow ' + v, x1: x1 + ux * CELL * 0.32, y1: y1 + uy * CELL * 0.32, x2: x2 - ux * CELL * 0.12,
      y2: y2 - uy * CELL * 0.12, 'marker-end': `url(#head-${v})`, 'data-move': m.move }, svg);
    // A tag with the value, at the target for a picked piece, else along the arrow (targets shared).
    const t = S.selected || S.preview ? 1 : 0.62;
    const tag = el('g', { class: 'tag', 'data-move': m.move }, tags);
    const text = shortValue(m.value, m.distance) + (m.captures.length ? '×' : '');
    const w = 10 + 8 * text.length;
    el('rect', { class: v, x: x1 + dx * t - w / 2, y: y1 + dy * t - 10, width: w, height: 20, rx: 6 }, tag);
    el('text', { x: x1 + dx * t, y: y1 + dy * t }, tag, text);
    if (S.selected || S.preview) drawCaptures(svg, m);
  }
  svg.appendChild(tags);
}

function drawCaptures(svg, m) {
  for (const sq of m.captures) {
    const [x, y] = pointXY(sq), d = CELL * 0.2;
    el('path', { class: 'capture', d: `M${x - d},${y - d} L${x + d},${y + d} M${x + d},${y - d} L${x - d},${y + d}` }, svg);
  }
}

function tapPoint(sq) {
  if (S.edit) editPoint(sq);
  else clickPoint(sq);
}

function clickPoint(sq) {
  if (S.selected) {
    const choices = movesTo(S.selected, sq);
    if (choices.length === 1) return playMove(choices[0].move, true);
    if (choices.length > 1) {
      setMessage('This step can capture in more than one way: choose the move in the list.');
      markChoices(choices.map((m) => m.move));
      return;
    }
  }
  const mine = S.answer.side_to_move === 'black' ? 'x' : 'w';
  const piece = $('board').querySelector(`[data-square="${sq}"]`).dataset.piece;
  S.selected = piece === mine && movesFrom(sq).length && S.selected !== sq ? sq : null;
  S.preview = null;
  drawBoard();
}

// Arrow keys walk the points as drawn (a flipped board walks the other way); Enter and Space tap.
function pointKey(ev, f, r) {
  const { rows, cols } = boardSize(S.table);
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[ev.key];
  if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    tapPoint(squareName(f, r));
  } else if (step) {
    ev.preventDefault();
    ev.stopPropagation();
    const turn = S.flipped ? -1 : 1;
    const nf = Math.min(cols - 1, Math.max(0, f + turn * step[0])), nr = Math.min(rows - 1, Math.max(0, r + turn * step[1]));
    $('board').querySelector(`[data-square="${squareName(nf, nr)}"]`).focus();
  }
}

// ---- The move list and the status -------------------------------------------------------------

function drawMoveList() {
  const ol = $('moves');
  ol.replaceChildren();
  $('moves-title').textContent = isProof() ? 'Moves' : 'Moves, best first';
  for (const m of S.answer.moves) {  // best first, as the server lists them
    const best = m.move === S.answer.engine_move;  // one star: the move "best move" plays
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = valueClass(m.value);
    b.dataset.move = m.move;
    b.dataset.value = m.value;
    b.dataset.distance = m.distance;
    const caps = m.captures || [];  // a Jungi move names its captures in its notation
    const parts = [['name', m.move], ['val', valueText(m.value, m.distance)],
      ['caps', caps.length ? '× ' + caps.join(' ') : ''],
      ['best', best ? (isProof() ? '★ strategy' : '★ best') : '']];
    for (const [cls, text] of parts) {
      const s = document.createElement('span');
      s.className = cls;
      s.textContent = text;
      b.appendChild(s);
    }
    b.setAttribute('aria-label', `${m.move}${caps.length ? ' capturing ' + caps.join(' ') : ''}: ` +
      `${valueText(m.value, m.distance)} for ${sideName(S.answer.side_to_move)}${best ? ', the best move' : ''}`);
    b.addEventListener('click', () => playMove(m.move, true));
    const show = () => { S.preview = m.move; drawBoard(); };
    const hide = () => { if (S.preview === m.move) { S.preview = null; drawBoard(); } };
    b.addEventListener('mouseenter', show);
    b.addEventListener('focus', show);
    b.addEventListener('mouseleave', hide);
    b.addEventListener('blur', hide);
    li.appendChild(b);
    ol.appendChild(li);
  }
  if (!S.answer.moves.length) ol.innerHTML = '<li class="help">no legal move</li>';
  for (const b of S.answer.banned || []) {  // a proof's: moves that would recreate a board
    const li = document.createElement('li');
    li.className = 'banned';
    li.dataset.move = b.move;
    li.textContent = `${b.move}: banned (${b.reason})`;
    ol.appendChild(li);
  }
  if (S.answer.proof) return drawProofNote();
  $('pv').textContent = S.answer.pv.length
    ? `Best line (${S.answer.pv.length} plies): ${S.answer.pv.join(' ')}` + (S.answer.pv_end ? `; then ${S.answer.pv_end}.` : '.')
    : S.answer.value === 'DRAW' ? 'With best play the game never ends.' : '';
}

// Under the list, for a proof: who wins and how; at the end, that the proof held.
function drawProofNote() {
  const a = S.answer, winner = sideName(a.winner);
  $('pv').textContent = a.game_over
    ? `Game over after ${a.history.length} plies: ${a.game_over}. ${winner} wins, as the proof says; undo tries another defence.`
    : `Superko proof (format ${a.format}): ${winner} wins. The strategy answers every move of ` +
      `${sideName(a.winner === 'black' ? 'white' : 'black')}, with the whole history and superko applied.`;
}

// A gonu-certificate-query/1 answer in the shape the page draws (gonu-query/1's): the winner's
// one move, or the loser's replies, each lost; no distances (null).
function fromProof(c) {
  const winnerMove = c.winner_move ? [{ move: c.winner_move, value: 'WIN', distance: null, captures: c.winner_move_captures }] : [];
  const replies = c.replies.map((r) => ({ move: r.move, value: 'LOSS', distance: null, captures: r.captures }));
  return Object.assign({}, c, {
    proof: true,
    moves: c.game_over ? [] : c.side_to_move === c.winner ? winnerMove : replies,
    distance: null,
    engine_move: c.winner_move,
    pv: [],
    pv_end: '',
  });
}

function markChoices(names) {
  for (const b of $('moves').querySelectorAll('button')) b.classList.toggle('chosen', names.includes(b.dataset.move));
  const first = $('moves').querySelector('button.chosen');
  if (first) first.focus();
}

function drawStatus() {
  const a = S.answer, st = $('status');
  st.replaceChildren();
  st.dataset.position = a.position;
  st.dataset.value = a.value;
  st.dataset.distance = a.distance;
  const who = document.createElement('span');
  who.textContent = sideName(a.side_to_move) + ' to move: ';
  const v = document.createElement('strong');
  v.className = valueClass(a.value);
  v.textContent = valueText(a.value, a.distance);
  st.append(who, v);
  if (a.game_over) st.append(' — ' + a.game_over);
  if (a.note) st.append(' (' + a.note + ')');
  if (a.histories && a.histories.count) st.append(' With earlier moves the table has: ' + a.histories.values.map(h => valueText(h.value, h.distance) + ' (' + h.histories + ')').join(', ') + '.');
  if (document.activeElement !== $('position')) $('position').value = S.edit ? editText() : a.position;
  $('position-example').textContent = S.table.root;
}

// ---- The game record and its chart ------------------------------------------------------------

function drawPlies() {
  const ol = $('plies');
  ol.replaceChildren();
  const names = ['start'].concat(S.line.map((m, i) => (i + 1) + '. ' + m));
  names.forEach((name, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = name;
    b.dataset.ply = i;
    if (i === S.ply) { b.classList.add('current'); b.setAttribute('aria-current', 'step'); }
    if (i > S.ply) b.classList.add('future');
    b.addEventListener('click', () => jump(i));
    li.appendChild(b);
    ol.appendChild(li);
  });
  // The current entry is scrolled into view inside the record only: scrollIntoView would scroll
  // the whole page too, and on a phone take the board away.
  const cur = ol.querySelector('.current');
  if (!cur) return;
  const top = cur.offsetTop, bottom = top + cur.offsetHeight;
  if (top < ol.scrollTop) ol.scrollTop = top;
  else if (bottom > ol.scrollTop + ol.clientHeight) ol.scrollTop = bottom - ol.clientHeight;
}

// The value for Black along the line, in three bands: Black wins (top), draw (the middle line),
// White wins (bottom). In a win band the nearer the end, the further out; a gap keeps the longest
// win apart from the draw line. The number by a point is its distance. The band names stand left
// of the axis, right-aligned, so that none runs into it. A tap anywhere on the chart goes to the
// nearest ply (the points alone would be too small to tap).
function drawChart() {
  const svg = $('chart');
  svg.replaceChildren();
  const plies = S.plies ? S.plies.plies : [];
  const W = 300, H = 170, left = 76, right = 10, top = 8, bottom = 24, inset = 10;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const n = Math.max(1, plies.length - 1);
  const maxD = Math.max(1, ...plies.map((p) => p.distance));
  const X = (i) => left + inset + (W - left - right - inset) * i / n;
  const mid = (top + H - bottom) / 2, half = (H - bottom - top) / 2, gap = half * 0.25;
  const Y = (p) => {
    const black = p.side_to_move === 'black' ? p.value : p.value === 'WIN' ? 'LOSS' : p.value === 'LOSS' ? 'WIN' : 'DRAW';
    const h = gap + (half - gap) * (1 - p.distance / maxD);
    return { y: black === 'WIN' ? mid - h : black === 'LOSS' ? mid + h : mid, black };
  };
  el('rect', { class: 'band-black', x: left, y: top, width: W - left - right, height: half - gap }, svg);
  el('rect', { class: 'band-white', x: left, y: mid + gap, width: W - left - right, height: half - gap }, svg);
  el('line', { class: 'axis', x1: left, x2: left, y1: top, y2: H - bottom }, svg);
  el('line', { class: 'zero', x1: left, x2: W - right, y1: mid, y2: mid }, svg);
  const yLabel = (y, text) => el('text', { class: 'label side', x: left - 6, y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, svg, text);
  yLabel(top + (half - gap) / 2, 'Black wins');
  yLabel(mid, 'draw');
  yLabel(H - bottom - (half - gap) / 2, 'White wins');
  el('text', { class: 'label plies', x: X(0), y: H - 6, 'text-anchor': 'start' }, svg, 'ply 0');
  el('text', { class: 'label plies', x: W - right, y: H - 6, 'text-anchor': 'end' }, svg, 'ply ' + Math.max(0, plies.length - 1));
  if (!plies.length) return;
  el('line', { class: 'cursor', x1: X(S.ply), x2: X(S.ply), y1: top, y2: H - bottom }, svg);
  el('path', { class: 'trace', d: plies.map((p, i) => (i ? 'L' : 'M') + X(i) + ',' + Y(p).y).join(' ') }, svg);
  plies.forEach((p, i) => {
    const { y, black } = Y(p);
    const cls = black === 'WIN' ? 'black-wins' : black === 'LOSS' ? 'white-wins' : 'draw';
    const c = el('circle', { class: cls, cx: X(i), cy: y, r: i === S.ply ? 5.5 : 3.5, 'data-ply': i }, svg);
    el('title', {}, c, `ply ${i}${p.move ? ' after ' + p.move : ''}: ${sideName(p.side_to_move)} to move, ` +
      valueText(p.value, p.distance) + (p.game_over ? ' (' + p.game_over + ')' : ''));
    if (plies.length <= 30 && p.value !== 'DRAW') el('text', { class: 'dist', x: X(i), y: y + (black === 'WIN' ? -8 : 15) }, svg, String(p.distance));
  });
  svg.onclick = (ev) => {
    const box = svg.getBoundingClientRect();
    const x = (ev.clientX - box.left) * W / box.width;
    jump(Math.max(0, Math.min(plies.length - 1, Math.round((x - X(0)) / (X(1) - X(0))))));
  };
}

// ---- State changes ----------------------------------------------------------------------------

// A message beside the board (moves), or beside the Position box (positions, tables).
function setMessage(text, where = 'board') { $(where === 'position' ? 'position-error' : 'message').textContent = text; }

function updateUrl() {
  const p = new URLSearchParams();
  p.set(isProof() ? 'certificate' : 'table', S.table.id);
  if (S.start !== null) p.set('position', S.start);
  if (S.line.length) p.set('history', S.line.join(' '));
  if (S.ply !== S.line.length) p.set('ply', S.ply);
  if (S.flipped) p.set('flip', '1');
  history.replaceState(null, '', '?' + p.toString());
}

// Draws the state; the server's message if it refuses it, else null.
async function render() {
  const seq = ++S.seq;
  document.body.dataset.busy = '1';
  let answer, line;
  try {
    if (isProof()) {
      answer = fromProof(await api('/api/certificate', S.line.slice(0, S.ply)));
      line = null;
    } else {
      answer = await api('/api/query', S.line.slice(0, S.ply));
      line = await api('/api/line', S.line);
    }
  } catch (e) {
    if (seq !== S.seq) return null;  // a newer state is being drawn
    document.body.dataset.busy = '0';
    return e.message;
  }
  if (seq !== S.seq) return null;
  S.answer = answer;
  S.plies = line;
  if (S.selected && !movesFrom(S.selected).length) S.selected = null;
  drawStatus();
  drawBoard();
  drawMoveList();
  drawPlies();
  $('chart').style.display = isProof() ? 'none' : '';
  $('engine').hidden = isProof();
  if (!isProof()) drawChart();
  updateButtons();
  updateUrl();
  document.body.dataset.ply = S.ply;
  document.body.dataset.busy = '0';
  maybeAutoplay(seq);
  return null;
}

// Applies a change of state; if the server refuses the new state, the old one comes back and the
// refusal is shown `where` (setMessage).
async function change(update, where = 'board') {
  const old = { table: S.table, start: S.start, line: S.line.slice(), ply: S.ply };
  update();
  S.selected = null;
  S.preview = null;
  const refused = await render();
  if (refused === null) {
    if (where === 'position') setMessage('', 'position');
    return true;
  }
  Object.assign(S, old);
  await render();
  setMessage(refused, where);
  return false;
}

function updateButtons() {
  $('undo').disabled = $('first').disabled = S.ply === 0;
  $('redo').disabled = $('last').disabled = S.ply === S.line.length;
  $('engine-move').disabled = !S.answer.engine_move;
}

async function playMove(move, byHand) {
  setMessage('');
  const ok = await change(() => {
    if (S.line[S.ply] === move) S.ply += 1;  // the same move as the record's: keep what follows
    else { S.line = S.line.slice(0, S.ply).concat([move]); S.ply += 1; }
  });
  if (ok) {
    S.autoplay = byHand || S.autoplay;
    S.engineRun = byHand ? 0 : S.engineRun + 1;
    maybeAutoplay(S.seq);
  }
}

function jump(ply) {
  if (ply < 0 || ply > S.line.length || ply === S.ply) return;
  S.autoplay = false;
  setMessage('');
  change(() => { S.ply = ply; });
}

// Perfect play for the sides ticked; for a proof, the strategy for the winner, always.
function maybeAutoplay(seq) {
  const a = S.answer;
  if (!S.autoplay || !a || !a.engine_move || S.ply !== S.line.length) return;
  if (!a.proof && !$(a.side_to_move === 'black' ? 'auto-black' : 'auto-white').checked) return;
  if (S.engineRun >= MAX_ENGINE_RUN) {
    setMessage(`Perfect play stopped after ${MAX_ENGINE_RUN} moves in a row; play a move or switch it off and on.`);
    return;
  }
  setTimeout(() => { if (seq === S.seq && S.answer === a) playMove(a.engine_move, false); }, 350);
}

// The select's value for a table is its id; for a proof, "certificate:" and its id.
const optionValue = (t) => (t.kind === 'certificate' ? 'certificate:' + t.id : t.id);

function chooseTable(value) {
  const t = S.tables.find((x) => optionValue(x) === value);
  if (!t) return;
  setMessage('');
  if (S.edit) closeEditor();
  S.autoplay = t.kind === 'certificate';  // the strategy moves first where the winner is to move
  change(() => { S.table = t; S.start = null; S.line = []; S.ply = 0; }, 'position');
}

function setStart(text) {
  setMessage('');
  return change(() => { S.start = text; S.line = []; S.ply = 0; }, 'position');
}

function flip() {
  S.flipped = !S.flipped;
  $('flip').setAttribute('aria-pressed', String(S.flipped));
  drawBoard();
  updateUrl();
}

// ---- The board editor: a tap cycles a point through empty, Black, White; Done sets the position.

function openEditor() {
  const { rows } = boardSize(S.table);
  S.edit = { grid: parseBoard(S.answer.position, rows).map((rank) => rank.split('')),
    side: S.answer.side_to_move === 'black' ? 'x' : 'w' };
  S.selected = S.preview = null;
  showEditor();
}

function closeEditor() {
  S.edit = null;
  showEditor();
}

// The editor's board as position text: ranks top first, runs of empty points as digits.
function editText() {
  const ranks = S.edit.grid.slice().reverse().map((rank) => rank.join('').replace(/\.+/g, (m) => String(m.length)));
  return ranks.join('/') + ' ' + S.edit.side;
}

function showEditor() {
  const on = S.edit !== null;
  $('editor').hidden = !on;
  $('edit').setAttribute('aria-pressed', String(on));
  document.body.dataset.editing = on ? '1' : '0';
  if (on) {
    $('edit-side').textContent = (S.edit.side === 'x' ? 'Black' : 'White') + ' to move';
    $('position').value = editText();
  } else if (S.answer) {
    $('position').value = S.answer.position;
  }
  if (S.answer) drawBoard();
}

function editPoint(sq) {
  const { f, r } = parseSquare(sq);
  S.edit.grid[r][f] = { '.': 'x', x: 'w', w: '.' }[S.edit.grid[r][f]];
  showEditor();
}

async function finishEdit() {
  if (await setStart(editText())) closeEditor();
}

// ---- Start ------------------------------------------------------------------------------------

function wireControls() {
  $('undo').addEventListener('click', () => jump(S.ply - 1));
  $('redo').addEventListener('click', () => jump(S.ply + 1));
  $('first').addEventListener('click', () => jump(0));
  $('last').addEventListener('click', () => jump(S.line.length));
  $('engine-move').addEventListener('click', () => S.answer.engine_move && playMove(S.answer.engine_move, false));
  $('table').addEventListener('change', (ev) => chooseTable(ev.target.value));
  $('setup').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = $('position').value.trim().replace(/\s+/g, ' ');
    if (S.edit) closeEditor();
    setStart(text);
  });
  $('root').addEventListener('click', () => {
    if (S.edit) closeEditor();
    setMessage('');
    change(() => { S.start = null; S.line = []; S.ply = 0; }, 'position');
  });
  $('edit').addEventListener('click', () => (S.edit ? closeEditor() : openEditor()));
  $('edit-side').addEventListener('click', () => { S.edit.side = S.edit.side === 'x' ? 'w' : 'x'; showEditor(); });
  $('edit-clear').addEventListener('click', () => { S.edit.grid = S.edit.grid.map((rank) => rank.map(() => '.')); showEditor(); });
  $('edit-done').addEventListener('click', finishEdit);
  $('edit-cancel').addEventListener('click', closeEditor);
  $('flip').addEventListener('click', flip);
  for (const id of ['auto-black', 'auto-white']) {
    $(id).addEventListener('change', () => { S.autoplay = true; S.engineRun = 0; maybeAutoplay(S.seq); });
  }
  document.addEventListener('keydown', globalKey);
}

function globalKey(ev) {
  const tag = ev.target.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const act = { ArrowLeft: () => jump(S.ply - 1), ArrowRight: () => jump(S.ply + 1), Home: () => jump(0),
    End: () => jump(S.line.length), b: () => S.answer.engine_move && playMove(S.answer.engine_move, false),
    f: flip,
    Escape: () => { S.selected = null; S.preview = null; drawBoard(); } }[ev.key];
  if (act) { ev.preventDefault(); act(); }
}

// The tables, then the superko proofs, in the select (each group only when there is one).
async function loadChoices() {
  const tables = (await (await fetch('/api/tables')).json()).tables;
  const proofs = (await (await fetch('/api/certificates')).json()).certificates.map((c) => Object.assign({ kind: 'certificate' }, c));
  S.tables = tables.concat(proofs);
  const group = (label, list, text) => {
    if (!list.length) return;
    const g = document.createElement('optgroup');
    g.label = label;
    for (const t of list) {
      const o = document.createElement('option');
      o.value = optionValue(t);
      o.textContent = text(t);
      g.appendChild(o);
    }
    $('table').appendChild(g);
  };
  group('Tables', tables, (t) => (t.game === 'jungi'
    ? `${t.id} (jungi ${t.material}, ${t.states.toLocaleString('en')} positions)`
    : `${t.id} (${t.rules.name} ${t.board}, ${t.states.toLocaleString('en')} states)`));
  group('Superko proofs', proofs, (c) => `${c.id} (superko ${c.board}: ${c.winner} wins, play against the proof)`);
}

async function init() {
  wireControls();
  await loadChoices();
  const q = new URLSearchParams(location.search);
  const asked = q.has('certificate') ? 'certificate:' + q.get('certificate') : q.get('table');
  S.table = S.tables.find((t) => optionValue(t) === asked) || S.tables[0];
  if (asked && optionValue(S.table) !== asked) setMessage(`unknown table or proof '${asked}'`, 'position');
  S.autoplay = isProof();
  $('table').value = optionValue(S.table);
  S.start = q.has('position') ? q.get('position') : null;
  S.line = (q.get('history') || '').split(/\s+/).filter((m) => m);
  S.ply = q.has('ply') ? Math.max(0, Math.min(S.line.length, Number(q.get('ply')) || 0)) : S.line.length;
  S.flipped = q.get('flip') === '1';
  $('flip').setAttribute('aria-pressed', String(S.flipped));
  const refused = await render();
  if (refused !== null) {
    S.start = null; S.line = []; S.ply = 0;
    await render();
    setMessage(refused + ' (showing the table\'s start instead)', 'position');
  }
}

init();
