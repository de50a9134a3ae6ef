// The gonu explorer's page logic, the shell shared by the games: each game's board, its editor
// and its notation are a module of their own (julgonu.js, jungi.js: gonuGames[name]); this file
// holds the state, the server's answers, the move list, the game record and its chart. The state is a game record (a table, a start position, a line
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
  flipped: false,   // the board turned round: rank 1 at the top
  edit: null,       // the board editor's state (the game module's) while it is open, else null
  rules: null,      // GET /api/rules?game=jungi: the pieces, for the legend and the palette
  materials: {},    // gonu-materials/1 answers by Jungi set id
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

// ---- Values and drawing helpers, shared by the game modules (julgonu.js, jungi.js) --------------

// The module of the chosen table's game; a superko proof is a Jul-gonu game.
const game = () => gonuGames[S.table && S.table.game === 'jungi' ? 'jungi' : 'julgonu'];
const isJungi = () => S.table && S.table.game === 'jungi';

const valueClass = (v) => v.toLowerCase();
// A proof's values have no distance (null): WIN or LOSS alone; a Jungi move into a material whose
// table is absent is UNKNOWN.
function valueText(v, d) { return v === 'DRAW' || v === 'UNKNOWN' ? v : d === null ? v : v + ' in ' + d; }
function shortValue(v, d) { return v === 'DRAW' ? 'D' : v === 'UNKNOWN' ? '?' : v[0] + (d === null ? '' : d); }
function sideName(s) {
  const side = game().sides.find((x) => x.id === s);
  return side ? side.name : s;
}
const otherSide = (s) => game().sides.find((x) => x.id !== s).id;

function el(name, attrs, parent, text) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}

// The board, drawn by the game's module; the focused square keeps the focus.
function drawBoard() {
  const svg = $('board');
  const focused = svg.contains(document.activeElement) ? document.activeElement.dataset.square : null;
  svg.replaceChildren();
  game().drawBoard(svg);
  if (game().drawLegend) game().drawLegend();
  if (focused) {
    const again = svg.querySelector(`[data-square="${focused}"]`);
    if (again) again.focus({ preventScroll: true });
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
    const parts = [['name', game().moveName(m)], ['val', valueText(m.value, m.distance)],
      ['caps', caps.length ? '× ' + caps.join(' ') : ''],
      ['best', best ? (isProof() ? '★ strategy' : '★ best') : '']];
    for (const [cls, text] of parts) {
      const s = document.createElement('span');
      s.className = cls;
      s.textContent = text;
      b.appendChild(s);
    }
    if (m.missing_table) parts.push(['missing', `${m.missing_table} is not served: ${m.missing_command}`]);
    b.setAttribute('aria-label', `${game().moveName(m)}${caps.length ? ' capturing ' + caps.join(' ') : ''}: ` +
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
  const pv = S.answer.pv_san || S.answer.pv;  // a Jungi answer's line in SAN where it has one
  $('pv').textContent = pv.length
    ? `Best line (${pv.length} plies): ${pv.join(' ')}` + (S.answer.pv_end ? `; then ${S.answer.pv_end}.` : '.')
    : S.answer.value === 'DRAW' ? 'With best play the game never ends.' : '';
}

// Under the list, for a proof: who wins and how; at the end, that the proof held.
function drawProofNote() {
  const a = S.answer, winner = sideName(a.winner);
  $('pv').textContent = a.game_over
    ? `Game over after ${a.history.length} plies: ${a.game_over}. ${winner} wins, as the proof says; undo tries another defence.`
    : `Superko proof (format ${a.format}): ${winner} wins. The strategy answers every move of ` +
      `${sideName(otherSide(a.winner))}, with the whole history and superko applied.`;
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
  if (a.material) st.append(' — ' + a.material);
  if (a.game_over) st.append(' — ' + a.game_over);
  if (a.note) st.append(' (' + a.note + ')');
  if (a.histories && a.histories.count) st.append(' With earlier moves the table has: ' + a.histories.values.map(h => valueText(h.value, h.distance) + ' (' + h.histories + ')').join(', ') + '.');
  if (document.activeElement !== $('position')) $('position').value = S.edit ? game().editText(S.edit) : a.position;
  $('help-text').textContent = game().help;
  $('position-example').textContent = S.table.root;
}

// ---- The game record and its chart ------------------------------------------------------------

function drawPlies() {
  const ol = $('plies');
  ol.replaceChildren();
  // A Jungi line's plies carry each move's SAN too: the record shows it where it has it.
  const plies = S.plies ? S.plies.plies : [];
  const names = ['start'].concat(S.line.map((m, i) => (i + 1) + '. ' + ((plies[i + 1] && plies[i + 1].san) || m)));
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

// The value for the game's first side (Black, South) along the line, in three bands: it wins
// (top), draw (the middle line), the other side wins (bottom). In a win band the nearer the end, the further out; a gap keeps the longest
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
  const [topSide, bottomSide] = game().sides;
  const Y = (p) => {
    const top = p.side_to_move === topSide.id ? p.value : p.value === 'WIN' ? 'LOSS' : p.value === 'LOSS' ? 'WIN' : 'DRAW';
    const h = gap + (half - gap) * (1 - p.distance / maxD);
    return { y: top === 'WIN' ? mid - h : top === 'LOSS' ? mid + h : mid, top };
  };
  el('rect', { class: 'band-top', x: left, y: top, width: W - left - right, height: half - gap }, svg);
  el('rect', { class: 'band-bottom', x: left, y: mid + gap, width: W - left - right, height: half - gap }, svg);
  el('line', { class: 'axis', x1: left, x2: left, y1: top, y2: H - bottom }, svg);
  el('line', { class: 'zero', x1: left, x2: W - right, y1: mid, y2: mid }, svg);
  const yLabel = (y, text) => el('text', { class: 'label side', x: left - 6, y, 'text-anchor': 'end', 'dominant-baseline': 'middle' }, svg, text);
  yLabel(top + (half - gap) / 2, topSide.short + ' wins');
  yLabel(mid, 'draw');
  yLabel(H - bottom - (half - gap) / 2, bottomSide.short + ' wins');
  el('text', { class: 'label plies', x: X(0), y: H - 6, 'text-anchor': 'start' }, svg, 'ply 0');
  el('text', { class: 'label plies', x: W - right, y: H - 6, 'text-anchor': 'end' }, svg, 'ply ' + Math.max(0, plies.length - 1));
  if (!plies.length) return;
  el('line', { class: 'cursor', x1: X(S.ply), x2: X(S.ply), y1: top, y2: H - bottom }, svg);
  el('path', { class: 'trace', d: plies.map((p, i) => (i ? 'L' : 'M') + X(i) + ',' + Y(p).y).join(' ') }, svg);
  plies.forEach((p, i) => {
    const { y, top: v } = Y(p);
    const cls = v === 'WIN' ? 'top-wins' : v === 'LOSS' ? 'bottom-wins' : 'draw';
    const c = el('circle', { class: cls, cx: X(i), cy: y, r: i === S.ply ? 5.5 : 3.5, 'data-ply': i }, svg);
    el('title', {}, c, `ply ${i}${p.move ? ' after ' + p.move : ''}: ${sideName(p.side_to_move)} to move, ` +
      valueText(p.value, p.distance) + (p.game_over ? ' (' + p.game_over + ')' : ''));
    if (plies.length <= 30 && p.value !== 'DRAW') el('text', { class: 'dist', x: X(i), y: y + (v === 'WIN' ? -8 : 15) }, svg, String(p.distance));
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
  $('choice').hidden = true;  // a question of the board's (which move to a shared target) is over
  $('choice').replaceChildren();
  drawStatus();
  drawBoard();
  drawMoveList();
  drawPlies();
  $('chart').style.display = isProof() ? 'none' : '';
  drawEngineChoices();
  $('materials-pane').hidden = !game().drawExtras;
  $('piece-legend').hidden = !game().drawLegend;
  if (game().drawExtras) game().drawExtras();
  $('engine').hidden = isProof();
  $('root').hidden = !game().hasStart;
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
  const box = $(autoId(a.side_to_move));
  if (!a.proof && !(box && box.checked)) return;
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

// ---- The board editor: the game's module keeps its state (S.edit) and draws its tools; Done
// asks the server for the position, which names what it refuses.

function openEditor() {
  S.edit = game().editOpen(S.answer);
  S.selected = S.preview = null;
  showEditor();
}

function closeEditor() {
  S.edit = null;
  showEditor();
}

function showEditor() {
  const on = S.edit !== null;
  $('editor').hidden = !on;
  $('edit').setAttribute('aria-pressed', String(on));
  document.body.dataset.editing = on ? '1' : '0';
  const tools = $('edit-tools');
  tools.replaceChildren();
  if (on) {
    $('edit-help').textContent = game().editHelp;
    $('edit-side').textContent = game().editSideName(S.edit) + ' to move';
    game().editTools(tools);
    $('position').value = game().editText(S.edit);
  } else if (S.answer) {
    $('position').value = S.answer.position;
  }
  if (S.answer) drawBoard();
}

async function finishEdit() {
  if (await setStart(game().editText(S.edit))) closeEditor();
}

// ---- Perfect play: one checkbox a side of the chosen game ("auto-black", "auto-south") ------------

const autoId = (side) => 'auto-' + side.toLowerCase();

function drawEngineChoices() {
  const box = $('engine-sides');
  const sides = game().sides;
  if (box.dataset.game === sides[0].id) return;  // kept (ticked or not) while the game stays
  box.dataset.game = sides[0].id;
  box.replaceChildren();
  for (const side of sides) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.id = autoId(side.id);
    input.addEventListener('change', () => { S.autoplay = true; S.engineRun = 0; maybeAutoplay(S.seq); });
    label.append(input, ' ' + side.name);
    box.appendChild(label);
  }
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
  $('edit-side').addEventListener('click', () => { game().editSide(S.edit); showEditor(); });
  $('edit-clear').addEventListener('click', () => { game().editClear(S.edit); showEditor(); });
  $('edit-done').addEventListener('click', finishEdit);
  $('edit-cancel').addEventListener('click', closeEditor);
  $('flip').addEventListener('click', flip);
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
  group('Tables', tables.filter((t) => t.game !== 'jungi'), gonuGames.julgonu.optionText);
  group('Jungi tables', tables.filter((t) => t.game === 'jungi'), gonuGames.jungi.optionText);
  group('Superko proofs', proofs, (c) => `${c.id} (superko ${c.board}: ${c.winner} wins, play against the proof)`);
}

async function init() {
  wireControls();
  await loadChoices();
  if (S.tables.some((t) => t.game === 'jungi')) S.rules = await (await fetch('/api/rules?game=jungi')).json();
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
