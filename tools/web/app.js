// The gonu explorer's page logic. The state is a game record (a table, a start position, a line
// of moves and how many of them are played); everything on the page is drawn from it and from the
// server's answers (gonu-query/1 for the position, gonu-line/1 for the chart), and the address
// holds it, so a reload or a shared link shows the same thing. The server checks every move; the
// page only turns clicks into move names.
'use strict';

const SVGNS = 'http://www.w3.org/2000/svg';
const CELL = 64, MARGIN = 44;
const MAX_ENGINE_RUN = 200;  // perfect play for both sides stops here (a drawn game never ends)

const S = {
  tables: [],       // gonu-tables/1 entries
  table: null,      // the chosen one
  start: null,      // position text, or null for the table's root
  line: [],         // the game record's moves
  ply: 0,           // how many of them are played
  answer: null,     // gonu-query/1 of the position after `ply` moves
  plies: null,      // gonu-line/1 plies of the whole line
  selected: null,   // the square of the picked piece
  preview: null,    // the move the pointer or focus is on in the list
  autoplay: false,  // perfect play may answer now (after a move or a switch; not after undo)
  engineRun: 0,     // perfect-play moves in a row: playing both sides, a draw would never end
  seq: 0,           // number of the latest render: a late answer never draws over a newer one
};
const cache = new Map();
const $ = (id) => document.getElementById(id);

// ---- The server -------------------------------------------------------------------------------

async function api(path, history) {
  const body = { table: S.table.id, history: history.join(' ') };
  if (S.start !== null) body.position = S.start;
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
function valueText(v, d) { return v === 'DRAW' ? 'DRAW' : v + ' in ' + d; }
function shortValue(v, d) { return v === 'DRAW' ? 'D' : v[0] + d; }
const sideName = (s) => (s === 'black' ? 'Black (x)' : 'White (w)');

// Best first: the fastest win, then draws, then the slowest loss; ties keep the server's order.
function rankedMoves(moves) {
  const key = (m) => (m.value === 'WIN' ? [0, m.distance] : m.value === 'DRAW' ? [1, 0] : [2, -m.distance]);
  return moves.map((m, i) => ({ m, i })).sort((a, b) => {
    const ka = key(a.m), kb = key(b.m);
    return ka[0] - kb[0] || ka[1] - kb[1] || a.i - b.i;
  }).map((x) => x.m);
}

// ---- SVG helpers ------------------------------------------------------------------------------

function el(name, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

function pointXY(sq, rows) {
  const { f, r } = parseSquare(sq);
  return [MARGIN + f * CELL, MARGIN + (rows - 1 - r) * CELL];
}

// ---- The board --------------------------------------------------------------------------------

function drawBoard() {
  const svg = $('board');
  const { rows, cols } = boardSize(S.table);
  const focused = svg.contains(document.activeElement) ? document.activeElement.dataset.square : null;
  svg.replaceChildren();
  svg.setAttribute('viewBox', `0 0 ${2 * MARGIN + (cols - 1) * CELL} ${2 * MARGIN + (rows - 1) * CELL}`);
  drawGrid(svg, rows, cols);
  drawLastMove(svg, rows);
  drawPoints(svg, rows, cols);
  drawMoves(svg, rows);
  if (focused) svg.querySelector(`[data-square="${focused}"]`).focus();
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
  for (let f = 0; f < cols; ++f) el('text', { class: 'label', x: x1 + f * CELL, y: y2 + MARGIN * 0.62 }, svg, fileName(f));
  for (let r = 0; r < rows; ++r) el('text', { class: 'label', x: MARGIN * 0.38, y: y2 - r * CELL }, svg, String(r + 1));
}

function drawLastMove(svg, rows) {
  const h = S.answer.history;
  const m = h.length ? parseMove(h[h.length - 1]) : null;
  if (!m) return;
  for (const sq of [m.from, m.to]) {
    const [x, y] = pointXY(sq, rows);
    el('circle', { class: 'last', cx: x, cy: y, r: CELL * 0.4 }, svg);
  }
}

// The moves of a square, and what the side to move can do from it.
function movesFrom(sq) { return S.answer.moves.filter((m) => parseMove(m.move).from === sq); }
function movesTo(from, to) { return S.answer.moves.filter((m) => { const p = parseMove(m.move); return p.from === from && p.to === to; }); }

function drawPoints(svg, rows, cols) {
  const grid = parseBoard(S.answer.position, rows);
  const mover = S.answer.side_to_move === 'black' ? 'x' : 'w';
  for (let r = rows - 1; r >= 0; --r) {
    for (let f = 0; f < cols; ++f) {
      const sq = squareName(f, r), c = grid[r][f];
      const [x, y] = pointXY(sq, rows);
      const g = el('g', { class: 'point', tabindex: 0, role: 'button', 'data-square': sq, 'data-piece': c }, svg);
      if (sq === S.selected) g.classList.add('selected');
      el('circle', { class: 'hit', cx: x, cy: y, r: CELL * 0.45 }, g);
      if (c !== '.') el('circle', { class: 'piece ' + (c === 'x' ? 'black' : 'white'), cx: x, cy: y, r: CELL * 0.3 }, g);
      g.setAttribute('aria-label', pointLabel(sq, c, mover));
      g.addEventListener('click', () => clickPoint(sq));
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
function drawMoves(svg, rows) {
  let shown = S.answer.moves;
  if (S.preview) shown = shown.filter((m) => m.move === S.preview);
  else if (S.selected) shown = movesFrom(S.selected);
  const tags = el('g', {}, svg);
  for (const m of shown) {
    const p = parseMove(m.move), v = valueClass(m.value);
    const [x1, y1] = pointXY(p.from, rows), [x2, y2] = pointXY(p.to, rows);
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
    if (S.selected || S.preview) drawCaptures(svg, m, rows);
  }
  svg.appendChild(tags);
}

function drawCaptures(svg, m, rows) {
  for (const sq of m.captures) {
    const [x, y] = pointXY(sq, rows), d = CELL * 0.2;
    el('path', { class: 'capture', d: `M${x - d},${y - d} L${x + d},${y + d} M${x + d},${y - d} L${x - d},${y + d}` }, svg);
  }
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

// Arrow keys walk the points; Enter and Space click.
function pointKey(ev, f, r) {
  const { rows, cols } = boardSize(S.table);
  const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[ev.key];
  if (ev.key === 'Enter' || ev.key === ' ') {
    ev.preventDefault();
    clickPoint(squareName(f, r));
  } else if (step) {
    ev.preventDefault();
    ev.stopPropagation();
    const nf = Math.min(cols - 1, Math.max(0, f + step[0])), nr = Math.min(rows - 1, Math.max(0, r + step[1]));
    $('board').querySelector(`[data-square="${squareName(nf, nr)}"]`).focus();
  }
}

// ---- The move list and the status -------------------------------------------------------------

function drawMoveList() {
  const ol = $('moves');
  ol.replaceChildren();
  for (const m of rankedMoves(S.answer.moves)) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = valueClass(m.value);
    b.dataset.move = m.move;
    b.dataset.value = m.value;
    b.dataset.distance = m.distance;
    const parts = [['name', m.move], ['val', valueText(m.value, m.distance)],
      ['caps', m.captures.length ? '× ' + m.captures.join(' ') : ''], ['best', m.best ? '★ best' : '']];
    for (const [cls, text] of parts) {
      const s = document.createElement('span');
      s.className = cls;
      s.textContent = text;
      b.appendChild(s);
    }
    b.setAttribute('aria-label', `${m.move}${m.captures.length ? ' capturing ' + m.captures.join(' ') : ''}: ` +
      `${valueText(m.value, m.distance)} for ${sideName(S.answer.side_to_move)}${m.best ? ', best' : ''}`);
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
  $('pv').textContent = S.answer.pv.length
    ? `Best line (${S.answer.pv.length} plies): ${S.answer.pv.join(' ')}; then ${S.answer.pv_end}.`
    : S.answer.value === 'DRAW' ? 'With best play the game never ends.' : '';
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
  if (document.activeElement !== $('position')) $('position').value = a.position;
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
  const cur = ol.querySelector('.current');
  if (cur && cur.scrollIntoView) cur.scrollIntoView({ block: 'nearest' });
}

// The value for Black along the line, in three bands: Black wins (top), draw (the middle line),
// White wins (bottom). In a win band the nearer the end, the further out; a gap keeps the longest
// win apart from the draw line. The number by a point is its distance.
function drawChart() {
  const svg = $('chart');
  svg.replaceChildren();
  const plies = S.plies ? S.plies.plies : [];
  const W = 340, H = 180, left = 58, right = 10, top = 8, bottom = 20;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  const n = Math.max(1, plies.length - 1);
  const maxD = Math.max(1, ...plies.map((p) => p.distance));
  const X = (i) => left + (W - left - right) * i / n;
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
  el('text', { class: 'label', x: 2, y: top + 10 }, svg, 'Black wins');
  el('text', { class: 'label', x: 2, y: mid + 4 }, svg, 'draw');
  el('text', { class: 'label', x: 2, y: H - bottom - 2 }, svg, 'White wins');
  el('text', { class: 'label', x: left, y: H - 5 }, svg, 'ply 0');
  el('text', { class: 'label', x: W - right - 34, y: H - 5 }, svg, 'ply ' + (plies.length - 1));
  if (!plies.length) return;
  el('line', { class: 'cursor', x1: X(S.ply), x2: X(S.ply), y1: top, y2: H - bottom }, svg);
  el('path', { class: 'trace', d: plies.map((p, i) => (i ? 'L' : 'M') + X(i) + ',' + Y(p).y).join(' ') }, svg);
  plies.forEach((p, i) => {
    const { y, black } = Y(p);
    const cls = black === 'WIN' ? 'black-wins' : black === 'LOSS' ? 'white-wins' : 'draw';
    const c = el('circle', { class: cls, cx: X(i), cy: y, r: i === S.ply ? 5.5 : 3.5, 'data-ply': i }, svg);
    el('title', {}, c, `ply ${i}${p.move ? ' after ' + p.move : ''}: ${sideName(p.side_to_move)} to move, ` +
      valueText(p.value, p.distance) + (p.game_over ? ' (' + p.game_over + ')' : ''));
    c.addEventListener('click', () => jump(i));
    if (plies.length <= 30 && p.value !== 'DRAW') el('text', { class: 'dist', x: X(i), y: y + (black === 'WIN' ? -8 : 15) }, svg, String(p.distance));
  });
}

// ---- State changes ----------------------------------------------------------------------------

function setMessage(text) { $('message').textContent = text; }

function updateUrl() {
  const p = new URLSearchParams();
  p.set('table', S.table.id);
  if (S.start !== null) p.set('position', S.start);
  if (S.line.length) p.set('history', S.line.join(' '));
  if (S.ply !== S.line.length) p.set('ply', S.ply);
  history.replaceState(null, '', '?' + p.toString());
}

// Draws the state; false (with the server's message shown) if the server refuses it.
async function render() {
  const seq = ++S.seq;
  document.body.dataset.busy = '1';
  let answer, line;
  try {
    answer = await api('/api/query', S.line.slice(0, S.ply));
    line = await api('/api/line', S.line);
  } catch (e) {
    if (seq === S.seq) { setMessage(e.message); document.body.dataset.busy = '0'; }
    return false;
  }
  if (seq !== S.seq) return true;
  S.answer = answer;
  S.plies = line;
  if (S.selected && !movesFrom(S.selected).length) S.selected = null;
  drawStatus();
  drawBoard();
  drawMoveList();
  drawPlies();
  drawChart();
  updateButtons();
  updateUrl();
  document.body.dataset.ply = S.ply;
  document.body.dataset.busy = '0';
  maybeAutoplay(seq);
  return true;
}

// Applies a change of state; if the server refuses the new state, the old one comes back.
async function change(update) {
  const old = { table: S.table, start: S.start, line: S.line.slice(), ply: S.ply };
  update();
  S.selected = null;
  S.preview = null;
  if (await render()) return true;
  Object.assign(S, old);
  const message = $('message').textContent;
  await render();
  setMessage(message);
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

function maybeAutoplay(seq) {
  const a = S.answer;
  if (!S.autoplay || !a || !a.engine_move || S.ply !== S.line.length) return;
  if (!$(a.side_to_move === 'black' ? 'auto-black' : 'auto-white').checked) return;
  if (S.engineRun >= MAX_ENGINE_RUN) {
    setMessage(`Perfect play stopped after ${MAX_ENGINE_RUN} moves in a row; play a move or switch it off and on.`);
    return;
  }
  setTimeout(() => { if (seq === S.seq && S.answer === a) playMove(a.engine_move, false); }, 350);
}

function chooseTable(id) {
  const t = S.tables.find((x) => x.id === id);
  if (!t) return;
  setMessage('');
  change(() => { S.table = t; S.start = null; S.line = []; S.ply = 0; });
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
    setMessage('');
    change(() => { S.start = text; S.line = []; S.ply = 0; });
  });
  $('root').addEventListener('click', () => { setMessage(''); change(() => { S.start = null; S.line = []; S.ply = 0; }); });
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
    Escape: () => { S.selected = null; S.preview = null; drawBoard(); } }[ev.key];
  if (act) { ev.preventDefault(); act(); }
}

async function init() {
  wireControls();
  const res = await fetch('/api/tables');
  S.tables = (await res.json()).tables;
  for (const t of S.tables) {
    const o = document.createElement('option');
    o.value = t.id;
    o.textContent = `${t.id} (${t.rules.name} ${t.board}, ${t.states.toLocaleString('en')} states)`;
    $('table').appendChild(o);
  }
  const q = new URLSearchParams(location.search);
  S.table = S.tables.find((t) => t.id === q.get('table')) || S.tables[0];
  if (q.get('table') && S.table.id !== q.get('table')) setMessage(`unknown table '${q.get('table')}'`);
  $('table').value = S.table.id;
  S.start = q.has('position') ? q.get('position') : null;
  S.line = (q.get('history') || '').split(/\s+/).filter((m) => m);
  S.ply = q.has('ply') ? Math.max(0, Math.min(S.line.length, Number(q.get('ply')) || 0)) : S.line.length;
  if (!(await render())) {
    const message = $('message').textContent;
    S.start = null; S.line = []; S.ply = 0;
    await render();
    setMessage(message + ' (showing the table\'s start instead)');
  }
}

init();
