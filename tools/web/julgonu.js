// The explorer's Jul-gonu module (a table of gonu-query/1, or a superko proof): the board of
// points, played by tapping a piece and then its target, every legal move an arrow in its value's
// colour; the board editor cycles a point through empty, Black, White. app.js (the shell) calls
// the functions of gonuGames.julgonu and draws everything else; positions and moves are the
// project's notation: 'x' Black, 'w' White, a digit a run of empty points, ranks top first.
'use strict';

window.gonuGames = window.gonuGames || {};

(() => {
const CELL = 64, MARGIN = 44;

function boardSize(table) {
  const [rows, cols] = table.board.split('x').map(Number);
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

// Where a point is drawn: rank 1 at the bottom, file a on the left, or the other way round when
// the board is flipped.
function pointXY(sq) {
  const { rows, cols } = boardSize(S.table);
  const { f, r } = parseSquare(sq);
  const col = S.flipped ? cols - 1 - f : f, row = S.flipped ? r : rows - 1 - r;
  return [MARGIN + col * CELL, MARGIN + row * CELL];
}

function draw(svg) {
  const { rows, cols } = boardSize(S.table);
  svg.setAttribute('viewBox', `0 0 ${2 * MARGIN + (cols - 1) * CELL} ${2 * MARGIN + (rows - 1) * CELL}`);
  drawGrid(svg, rows, cols);
  if (!S.edit) drawLastMove(svg);
  drawPoints(svg, rows, cols);
  if (!S.edit) drawMoves(svg);
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
  const m = S.ply ? parseMove(S.line[S.ply - 1]) : null;
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

function markChoices(names) {
  for (const b of $('moves').querySelectorAll('button')) b.classList.toggle('chosen', names.includes(b.dataset.move));
  const first = $('moves').querySelector('button.chosen');
  if (first) first.focus();
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

// ---- The board editor: a tap cycles a point through empty, Black, White -----------------------

function editOpen(answer) {
  const { rows } = boardSize(S.table);
  return { grid: parseBoard(answer.position, rows).map((rank) => rank.split('')),
    side: answer.side_to_move === 'black' ? 'x' : 'w' };
}

// The editor's board as position text: ranks top first, runs of empty points as digits.
function editText(edit) {
  const ranks = edit.grid.slice().reverse().map((rank) => rank.join('').replace(/\.+/g, (m) => String(m.length)));
  return ranks.join('/') + ' ' + edit.side;
}

function editPoint(sq) {
  const { f, r } = parseSquare(sq);
  S.edit.grid[r][f] = { '.': 'x', x: 'w', w: '.' }[S.edit.grid[r][f]];
  showEditor();
}

gonuGames.julgonu = {
  sides: [{ id: 'black', name: 'Black (x)', short: 'Black' }, { id: 'white', name: 'White (w)', short: 'White' }],
  help: 'x Black, w White, a digit a run of empty points, ranks top first separated by /, then the side to move;' +
    ' this table\'s start:',
  editHelp: 'Tap a point: empty, Black, White, empty.',
  hasStart: true,
  optionText: (t) => `${t.id} (${t.rules.name} ${t.board}, ${t.states.toLocaleString('en')} states)`,
  moveName: (m) => m.move,
  drawBoard: draw,
  editOpen,
  editText,
  editSide: (edit) => { edit.side = edit.side === 'x' ? 'w' : 'x'; },
  editSideName: (edit) => (edit.side === 'x' ? 'Black' : 'White'),
  editClear: (edit) => { edit.grid = edit.grid.map((rank) => rank.map(() => '.')); },
  editTools: () => {},
};
})();
