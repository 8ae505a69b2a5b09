/* web/app.js: the page over tbserve's JSON API (/api/v1/).
 *
 * State: a puzzle, a metric, the position as typed (or a named start), the
 * puzzle's query options, and the moves played since.  All of it lives in the
 * URL's fragment (#puzzle=..&metric=..&position=..&moves=..), so a position
 * can be shared; the server plays the moves (moves=M1,M2,..), so the page
 * needs no puzzle's rules.  What it knows of a puzzle is how to draw it:
 * Klotski's letters as blocks, the other puzzles' cells as stones.
 *
 * No libraries, nothing fetched but tbserve's own answers.
 */
'use strict';

/* Named starts: a position text and query options for each. */
const STARTS = {
  klotski: [{ name: '横刀立马 (the classic start)',
              position: 'BAAC\nBAAC\nDEEF\nDGHF\nIKKJ' }],
  swap: [{ name: 'P1225 sample',
           position: '1111\n0000\n1110\n0010\n1010\n0101\n1010\n0101' }],
  four: [{ name: "seed 001's board (codevs 1004)",
           position: 'BWBO\nWBWB\nBWBW\nWBWO' }],
  frog: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map(n => (
    { name: `the start for n = ${n}`, position: '',
      options: { n: String(n) } }))
};

const SVGNS = 'http://www.w3.org/2000/svg';
const $ = id => document.getElementById(id);

const state = { puzzle: '', metric: '', position: '', options: {},
                moves: [] };
let puzzles = [];          /* /api/v1/puzzles */
let answer = null;         /* the current position's answer */
let stats = null;          /* the current table's histogram */
let statsKey = '';
let busy = false;

/* ---- the URL ---------------------------------------------------------- */

function toHash() {
  const q = new URLSearchParams();
  q.set('puzzle', state.puzzle);
  q.set('metric', state.metric);
  if (state.position) q.set('position', state.position);
  for (const [k, v] of Object.entries(state.options)) if (v) q.set(k, v);
  if (state.moves.length) q.set('moves', state.moves.join(','));
  return '#' + q.toString();
}

function fromHash() {
  const q = new URLSearchParams(location.hash.slice(1));
  const p = puzzles.find(x => x.name === q.get('puzzle')) || puzzles[0];
  state.puzzle = p.name;
  const m = p.metrics.find(x => x.name === q.get('metric')) || p.metrics[0];
  state.metric = m.name;
  state.position = q.get('position') || '';
  state.options = {};
  for (const o of p.options)
    if (q.get(o.name)) state.options[o.name] = q.get(o.name);
  state.moves = q.get('moves') ? q.get('moves').split(',') : [];
  if (!state.position && !Object.keys(state.options).length) {
    const s = (STARTS[p.name] || [])[0];      /* nothing given: its start */
    if (s) {
      state.position = s.position;
      state.options = { ...(s.options || {}) };
    }
  }
}

/* ---- the API ---------------------------------------------------------- */

async function getJSON(url) {
  const r = await fetch(url);
  let body = null;
  try { body = await r.json(); } catch (e) { body = null; }
  if (!r.ok)
    throw new Error(body && body.error ? body.error : `HTTP ${r.status}`);
  return body;
}

function queryURL() {
  const q = new URLSearchParams();
  q.set('metric', state.metric);
  if (state.position) q.set('position', state.position);
  for (const [k, v] of Object.entries(state.options)) if (v) q.set(k, v);
  if (state.moves.length) q.set('moves', state.moves.join(','));
  return `api/v1/${encodeURIComponent(state.puzzle)}?${q}`;
}

/* ---- drawing ---------------------------------------------------------- */

function el(name, attrs, parent) {
  const e = document.createElementNS(SVGNS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

function rows(board) {
  return board.split('\n').filter(r => r.length);
}

const STONE_BLACK = '1Bb●';
const STONE_WHITE = '0Ww○';
/* Klotski's empty cells: '.' in a general grid, else K (the A-K notation). */
const klotskiEmpty = cells => cells.some(r => r.includes('.')) ? '.' : 'K';

function blockColour(w, h) {
  if (w === 2 && h === 2) return '#c0392b';
  if (w === 2) return '#2e86c1';
  if (h === 2) return '#239b56';
  return '#d4ac0d';
}

/* Draws board text into svg; cells that differ from 'other' are marked;
 * onCell(r, c) is called when a cell is clicked. */
function drawBoard(svg, board, other, onCell) {
  const g = rows(board);
  const h = g.length, w = Math.max(...g.map(r => [...r].length));
  const cell = 60, pad = 6;
  svg.replaceChildren();
  const W = w * cell + 2 * pad, H = h * cell + 2 * pad;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', Math.min(W, 520));
  el('rect', { x: 0, y: 0, width: W, height: H, rx: 8, class: 'tray' }, svg);
  const cells = g.map(r => [...r]);
  const o = other ? rows(other).map(r => [...r]) : null;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const x = pad + c * cell, y = pad + r * cell;
      const hit = el('rect', { x, y, width: cell, height: cell,
                               class: 'cell', 'data-r': r, 'data-c': c }, svg);
      if (o && o[r] && o[r][c] !== cells[r][c])
        hit.setAttribute('class', 'cell changed');
      if (onCell) hit.addEventListener('click', () => onCell(r, c));
    }
  }
  if (state.puzzle === 'klotski') drawBlocks(svg, cells, cell, pad, onCell);
  else drawStones(svg, cells, cell, pad, onCell);
}

function drawBlocks(svg, cells, cell, pad, onCell) {
  const seen = new Map(), empty = klotskiEmpty(cells);
  cells.forEach((row, r) => row.forEach((ch, c) => {
    if (ch === empty || ch === ' ') return;
    const b = seen.get(ch) || { r0: r, r1: r, c0: c, c1: c, n: 0 };
    b.r0 = Math.min(b.r0, r); b.r1 = Math.max(b.r1, r);
    b.c0 = Math.min(b.c0, c); b.c1 = Math.max(b.c1, c); b.n++;
    seen.set(ch, b);
  }));
  for (const [ch, b] of seen) {
    const w = b.c1 - b.c0 + 1, h = b.r1 - b.r0 + 1;
    const parts = b.n === w * h ? [[b.r0, b.c0, w, h]]
      : cells.flatMap((row, r) =>
          row.map((x, c) => x === ch ? [r, c, 1, 1] : null)).filter(Boolean);
    for (const [r, c, pw, ph] of parts) {
      const g = el('g', { class: 'piece', 'data-piece': ch }, svg);
      el('rect', { x: pad + c * cell + 3, y: pad + r * cell + 3,
                   width: pw * cell - 6, height: ph * cell - 6, rx: 8,
                   fill: blockColour(pw, ph) }, g);
      const t = el('text', { x: pad + (c + pw / 2) * cell,
                             y: pad + (r + ph / 2) * cell + 7,
                             'text-anchor': 'middle', class: 'label' }, g);
      t.textContent = ch;
      if (onCell) g.addEventListener('click', () => onCell(r, c));
    }
  }
}

function drawStones(svg, cells, cell, pad, onCell) {
  cells.forEach((row, r) => row.forEach((ch, c) => {
    const black = STONE_BLACK.includes(ch), white = STONE_WHITE.includes(ch);
    if (!black && !white) return;
    const s = el('circle', {
      cx: pad + (c + 0.5) * cell, cy: pad + (r + 0.5) * cell, r: cell * 0.38,
      class: black ? 'stone black' : 'stone white', 'data-piece': ch }, svg);
    if (onCell) s.addEventListener('click', () => onCell(r, c));
  }));
}

function drawChart() {
  const svg = $('chart');
  svg.replaceChildren();
  if (!stats) return;
  const hist = stats.histogram, n = hist.length;
  const W = 720, H = 200, left = 40, bottom = 24;
  const bw = (W - left) / n, top = Math.log10(Math.max(...hist) + 1);
  svg.setAttribute('viewBox', `0 0 ${W} ${H + bottom}`);
  const here = answer && answer.distance !== null ? answer.distance : -1;
  hist.forEach((v, d) => {
    const bh = v ? Math.max(1, H * Math.log10(v + 1) / top) : 0;
    const r = el('rect', {
      x: left + d * bw, y: H - bh, width: Math.max(bw - 1, 1), height: bh,
      class: d === here ? 'bar here' : 'bar' }, svg);
    el('title', {}, r).textContent = `${v} positions at distance ${d}`;
  });
  for (let d = 0; d < n; d += Math.max(1, Math.ceil(n / 12))) {
    el('text', { x: left + (d + 0.5) * bw, y: H + 16, 'text-anchor': 'middle',
                 class: 'axis' }, svg).textContent = d;
  }
  el('text', { x: 2, y: 12, class: 'axis' }, svg).textContent = 'log';
  if (here >= 0) {
    el('line', { x1: left + (here + 0.5) * bw, x2: left + (here + 0.5) * bw,
                 y1: 0, y2: H, class: 'marker' }, svg);
  }
  $('chart-note').textContent =
    `${stats.states} positions, ${stats.solvable} solvable, farthest at ` +
    `${stats.max_distance}` +
    (here >= 0 ? `; this one is at ${here} (marked)` : '');
}

/* ---- the position ------------------------------------------------------ */

function changedCells(a, b) {
  const x = rows(a).map(r => [...r]), y = rows(b).map(r => [...r]);
  const out = [];
  x.forEach((row, r) => row.forEach((ch, c) => {
    if (!y[r] || y[r][c] !== ch) out.push([r, c]);
  }));
  return out;
}

/* A click on a cell plays the best move that changes it. */
function clickCell(r, c) {
  if (!answer || busy) return;
  const m = answer.analysis.find(s =>
    changedCells(answer.input, s.board).some(([y, x]) => y === r && x === c));
  if (m) play(m.move);
}

function showMoves() {
  const ol = $('moves');
  ol.replaceChildren();
  for (const s of answer.analysis) {
    const li = document.createElement('li');
    li.className = s.optimal ? 'optimal'
      : s.category === 'unsolvable' ? 'unsolvable'
      : s.distance === answer.distance ? 'level' : 'losing';
    li.dataset.move = s.move;
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = s.move;
    const d = document.createElement('span');
    d.className = 'dist';
    d.textContent = s.distance === null ? 'unsolvable' : `→ ${s.distance}`;
    li.append(b, d);
    b.addEventListener('click', () => play(s.move));
    li.addEventListener('mouseenter',
      () => drawBoard($('board'), s.board, answer.input, null));
    li.addEventListener('mouseleave',
      () => drawBoard($('board'), answer.input, null, clickCell));
    ol.appendChild(li);
  }
  if (!answer.analysis.length) {
    const li = document.createElement('li');
    li.textContent = answer.distance === 0 ? 'the goal: nothing left to do'
                                           : 'no legal move';
    ol.appendChild(li);
  }
}

function showAnswer() {
  $('error').hidden = true;
  drawBoard($('board'), answer.input, null, clickCell);
  const solved = answer.distance === 0;
  $('distance').textContent =
    answer.distance === null ? '∞' : answer.distance;
  $('category').textContent = answer.category === 'goal' ? 'solved!'
    : answer.category === 'unsolvable' ? 'the goal cannot be reached' : '';
  $('status').className = solved ? 'goal' : answer.category;
  $('played').textContent = state.moves.length
    ? `${state.moves.length} moves played: ${state.moves.join(', ')}` : '';
  $('code').textContent = answer.query && answer.query.code
    ? `code ${answer.query.code}` : '';
  $('back').disabled = $('first').disabled = !state.moves.length;
  $('forward').disabled = $('solve').disabled = !answer.moves.length;
  showMoves();
  drawChart();
}

function showError(msg) {
  answer = null;
  $('error').textContent = msg;
  $('error').hidden = false;
  $('board').replaceChildren();
  $('moves').replaceChildren();
  $('distance').textContent = '–';
  $('category').textContent = '';
  $('played').textContent = $('code').textContent = '';
  drawChart();
}

async function refresh() {
  busy = true;
  if (location.hash !== toHash()) history.replaceState(null, '', toHash());
  try {
    const key = `${state.puzzle}/${state.metric}`;
    if (key !== statsKey) {
      statsKey = key;
      stats = null;
      const p = encodeURIComponent(state.puzzle);
      const m = encodeURIComponent(state.metric);
      stats = await getJSON(`api/v1/${p}/stats?metric=${m}`)
        .catch(() => null);
    }
    answer = await getJSON(queryURL());
    showAnswer();
  } catch (e) {
    showError(e.message);
  } finally {
    busy = false;
    document.body.dataset.ready = '1';
  }
}

function play(move) {
  if (busy) return;
  state.moves.push(move);
  history.pushState(null, '', toHash());
  refresh();
}

/* ---- the form --------------------------------------------------------- */

function fillSetup() {
  const p = puzzles.find(x => x.name === state.puzzle);
  $('puzzle').value = p.name;
  $('metric').replaceChildren(...p.metrics.map(m => new Option(
    m.status === 'ok' ? m.name : `${m.name} (${m.status})`, m.name)));
  $('metric').value = state.metric;
  $('start').replaceChildren(new Option('(choose)', ''),
    ...(STARTS[p.name] || []).map((s, i) => new Option(s.name, String(i))));
  $('options').replaceChildren(...p.options.map(o => {
    const l = document.createElement('label');
    l.title = o.help;
    l.append(`${o.name} `);
    const i = document.createElement('input');
    i.id = `opt-${o.name}`;
    i.size = 4;
    i.placeholder = o.value;
    i.value = state.options[o.name] || '';
    l.appendChild(i);
    return l;
  }));
  $('position').value = state.position;
  $('summary').textContent = p.summary;
}

function readSetup() {
  const p = puzzles.find(x => x.name === state.puzzle);
  state.metric = $('metric').value;
  state.position = $('position').value.trim();
  state.options = {};
  for (const o of p.options) {
    const v = $(`opt-${o.name}`).value.trim();
    if (v) state.options[o.name] = v;
  }
  state.moves = [];
}

function load() {
  readSetup();
  history.pushState(null, '', toHash());
  refresh();
}

async function main() {
  try {
    puzzles = (await getJSON('api/v1/puzzles')).puzzles;
  } catch (e) {
    showError(`cannot reach tbserve: ${e.message}`);
    return;
  }
  $('puzzle').replaceChildren(...puzzles.map(p => new Option(p.name, p.name)));
  fromHash();
  fillSetup();
  $('puzzle').addEventListener('change', () => {
    state.puzzle = $('puzzle').value;
    const p = puzzles.find(x => x.name === state.puzzle);
    state.metric = p.metrics[0].name;
    const s = (STARTS[p.name] || [])[0];
    state.position = s ? s.position : '';
    state.options = s ? { ...(s.options || {}) } : {};
    state.moves = [];
    fillSetup();
    history.pushState(null, '', toHash());
    refresh();
  });
  $('metric').addEventListener('change', load);
  $('start').addEventListener('change', () => {
    const s = (STARTS[state.puzzle] || [])[Number($('start').value)];
    if (!s || $('start').value === '') return;
    state.position = s.position;
    state.options = { ...(s.options || {}) };
    fillSetup();
    load();
  });
  $('load').addEventListener('click', load);
  $('back').addEventListener('click', () => {
    if (busy || !state.moves.length) return;
    state.moves.pop();
    history.pushState(null, '', toHash());
    refresh();
  });
  $('first').addEventListener('click', () => {
    if (busy) return;
    state.moves = [];
    history.pushState(null, '', toHash());
    refresh();
  });
  $('forward').addEventListener('click', () => {
    if (answer && answer.moves.length) play(answer.moves[0].move);
  });
  $('solve').addEventListener('click', () => {
    if (!answer || busy || !answer.moves.length) return;
    state.moves.push(...answer.moves.map(m => m.move));
    history.pushState(null, '', toHash());
    refresh();
  });
  const navigate = () => {
    if (location.hash === toHash()) return;
    fromHash();
    fillSetup();
    refresh();
  };
  window.addEventListener('popstate', navigate);
  window.addEventListener('hashchange', navigate);
  refresh();
}

main();
