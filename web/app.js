/* web/app.js: the page over tbserve's JSON API (/api/v1/).
 *
 * State: a puzzle, a metric, the position as typed (or a named start), the
 * puzzle's query options, and the moves played since.  All of it lives in the
 * URL's fragment (#puzzle=..&metric=..&position=..&moves=..), so a position
 * can be shared; the server plays the moves (moves=M1,M2,..), so the page
 * needs no puzzle's rules.  What it knows of a puzzle is how to draw it:
 * Klotski's letters as blocks, the other puzzles' cells as stones, and
 * beside the board its goal (GOALS: swap's target, where Klotski's 2x2
 * block must go, four's line, frog's exchanged row).  Random starts at a
 * chosen distance come from /random, the farthest ones from /stats.
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

/* What the page knows of each puzzle's goal, drawn beside the board: a
 * caption; the board to draw (by default the last board of the optimal
 * line, a goal this position reaches; swap's is the query's target, frog's
 * the one row with the colours exchanged, Klotski's an empty tray when no
 * line reaches it); and what to mark: swap's cells that still differ,
 * Klotski's zone (rows 4-5, columns 2-3 from 1, on both boards), four's
 * line of one colour; many: one of many goals is drawn; scale: of the
 * board's size (0.6).  A puzzle missing here gets the line's last board. */
const GOALS = {
  swap: { caption: 'Target: the board to reach (cells that still differ ' +
                   'are marked)',
          board: a => a.query && a.query.target, differs: true,
          scale: 0.8 },
  klotski: { caption: 'Goal: the 2×2 block at the bottom middle (dashed)',
             zone: { r: 3, c: 1, w: 2, h: 2 }, many: true,
             board: (a, last) => last ||
               rows(a.input).map(r => '.'.repeat([...r].length)).join('\n') },
  four: { caption: 'Goal: four stones of one colour in a row, column or ' +
                   'diagonal', line: true, many: true },
  frog: { caption: 'Goal: the colours exchanged',
          board: a => {
            const cells = [...a.input];
            const count = ch => cells.filter(x => x === ch).length;
            return 'B'.repeat(count('B')) + '.' + 'W'.repeat(count('W'));
          } }
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

/* Draws board text into svg and returns its geometry.  opts: other, a
 * board whose differing cells are marked as changed (a move's preview);
 * differs, a board whose differing cells are marked as still to change
 * (swap's target); onCell(r, c), called when a cell is clicked; scale, of
 * the drawing's width (1: cells of 60 units shown at most 520 px wide). */
function drawBoard(svg, board, opts = {}) {
  const g = rows(board);
  const h = g.length, w = Math.max(...g.map(r => [...r].length));
  const cell = 60, pad = 6, onCell = opts.onCell;
  svg.replaceChildren();
  const W = w * cell + 2 * pad, H = h * cell + 2 * pad;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', Math.round(Math.min(W, 520) * (opts.scale || 1)));
  el('rect', { x: 0, y: 0, width: W, height: H, rx: 8, class: 'tray' }, svg);
  const cells = g.map(r => [...r]);
  const o = opts.other ? rows(opts.other).map(r => [...r]) : null;
  const d = opts.differs ? rows(opts.differs).map(r => [...r]) : null;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const x = pad + c * cell, y = pad + r * cell;
      const hit = el('rect', { x, y, width: cell, height: cell,
                               class: 'cell', 'data-r': r, 'data-c': c }, svg);
      if (o && o[r] && o[r][c] !== cells[r][c])
        hit.setAttribute('class', 'cell changed');
      if (d && d[r] && d[r][c] !== cells[r][c])
        hit.setAttribute('class', 'cell differs');
      if (onCell) hit.addEventListener('click', () => onCell(r, c));
    }
  }
  if (state.puzzle === 'klotski') drawBlocks(svg, cells, cell, pad, onCell);
  else drawStones(svg, cells, cell, pad, onCell);
  return { cells, cell, pad };
}

/* The goal's marks over a drawn board: Klotski's zone as a dashed frame,
 * four's line of one colour (when the board has one) as a stroke through
 * its stones. */
function drawGoalMarks(svg, geo, goal) {
  const { cells, cell, pad } = geo;
  if (goal.zone) {
    const z = goal.zone;
    el('rect', { x: pad + z.c * cell + 1, y: pad + z.r * cell + 1,
                 width: z.w * cell - 2, height: z.h * cell - 2, rx: 10,
                 class: 'goal-zone', 'data-r': z.r, 'data-c': z.c,
                 'data-w': z.w, 'data-h': z.h }, svg);
  }
  const line = goal.line ? fourLine(cells) : null;
  if (line) {
    const at = ([r, c]) => [pad + (c + 0.5) * cell, pad + (r + 0.5) * cell];
    const [x1, y1] = at(line[0]), [x2, y2] = at(line[3]);
    el('line', { x1, y1, x2, y2, class: 'goal-line',
                 'data-cells': line.map(([r, c]) => `${r},${c}`).join(' ') },
       svg);
  }
}

/* A row, column or diagonal of four stones of one colour, or null. */
function fourLine(cells) {
  const lines = [];
  for (let i = 0; i < 4; i++) {
    lines.push([0, 1, 2, 3].map(j => [i, j]), [0, 1, 2, 3].map(j => [j, i]));
  }
  lines.push([0, 1, 2, 3].map(j => [j, j]), [0, 1, 2, 3].map(j => [j, 3 - j]));
  const colour = ch => STONE_BLACK.includes(ch) ? 'B'
    : STONE_WHITE.includes(ch) ? 'W' : '';
  return lines.find(l => {
    const k = l.map(([r, c]) => colour((cells[r] || [])[c]));
    return k[0] && k.every(x => x === k[0]);
  }) || null;
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

/* A count for an axis: 1, 10, 100, 1k, 10k, 100k, 1M, ... */
function shortCount(v) {
  return v >= 1e9 ? `${v / 1e9}G` : v >= 1e6 ? `${v / 1e6}M`
    : v >= 1e3 ? `${v / 1e3}k` : String(v);
}

/* The histogram at the chart's own width in pixels (redrawn when the window
 * changes), so its labels keep their size: a bar per distance on a log
 * scale, the y axis with the powers of ten, the x axis with distances every
 * 1, 2, 5, 10, 20 or 50, both titled, and the current distance marked with
 * its count. */
function drawChart() {
  const svg = $('chart');
  svg.replaceChildren();
  if (!stats) {
    $('chart-note').textContent = '';
    return;
  }
  const hist = stats.histogram, n = hist.length;
  const W = Math.max(280, Math.round(svg.getBoundingClientRect().width) || 720);
  const H = 240, left = 52, right = 16, top = 22, bottom = 44;
  const pw = W - left - right, ph = H - top - bottom;
  const decades = Math.max(1, Math.ceil(Math.log10(Math.max(...hist, 1))));
  const y = v => top + ph - ph * Math.log10(Math.max(v, 1)) / decades;
  const bw = pw / n;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('height', H);
  const here = answer && answer.distance !== null ? answer.distance : -1;
  for (let k = 0; k <= decades; k++) {          /* y axis: powers of ten */
    const v = 10 ** k, yy = y(v);
    el('line', { x1: left, x2: W - right, y1: yy, y2: yy, class: 'grid' },
       svg);
    el('text', { x: left - 6, y: yy + 4, 'text-anchor': 'end',
                 class: 'axis y-tick' }, svg).textContent = shortCount(v);
  }
  hist.forEach((v, d) => {
    const yy = v ? y(v) - (v === 1 ? 1 : 0) : top + ph;
    const r = el('rect', {
      x: left + d * bw, y: yy, width: Math.max(bw - (bw > 3 ? 1 : 0), 0.6),
      height: top + ph - yy, class: d === here ? 'bar here' : 'bar',
      'data-distance': d, 'data-count': v }, svg);
    el('title', {}, r).textContent =
      `${v.toLocaleString('en')} positions at distance ${d}`;
  });
  const step = [1, 2, 5, 10, 20, 50, 100].find(s => pw / n * s >= 34) || 100;
  const ticks = [];
  for (let d = 0; d < n; d += step) ticks.push(d);
  if (n - 1 - ticks[ticks.length - 1] >= step / 2) ticks.push(n - 1);
  for (const d of ticks) {                      /* x axis: distances */
    const xx = left + (d + 0.5) * bw;
    el('line', { x1: xx, x2: xx, y1: top + ph, y2: top + ph + 4,
                 class: 'tick' }, svg);
    el('text', { x: xx, y: top + ph + 17, 'text-anchor': 'middle',
                 class: 'axis x-tick' }, svg).textContent = d;
  }
  el('line', { x1: left, x2: left, y1: top, y2: top + ph, class: 'axis-line' },
     svg);
  el('line', { x1: left, x2: W - right, y1: top + ph, y2: top + ph,
               class: 'axis-line' }, svg);
  el('text', { x: left + pw / 2, y: H - 6, 'text-anchor': 'middle',
               class: 'axis-title', id: 'x-title' }, svg).textContent =
    `distance to the goal (moves, ${stats.metric} metric)`;
  el('text', { x: -(top + ph / 2), y: 13, transform: 'rotate(-90)',
               'text-anchor': 'middle', class: 'axis-title', id: 'y-title' },
     svg).textContent = 'positions (log scale)';
  if (here >= 0 && here < n) {
    const xx = left + (here + 0.5) * bw;
    el('line', { x1: xx, x2: xx, y1: top, y2: top + ph, class: 'marker' },
       svg);
    const label = `${here}: ${hist[here].toLocaleString('en')}`;
    el('text', { x: Math.min(Math.max(xx, left + 40), W - right - 40),
                 y: top - 6, 'text-anchor': 'middle', class: 'here-label' },
       svg).textContent = label;
  }
  $('chart-note').textContent =
    `${stats.states.toLocaleString('en')} positions, ` +
    `${stats.solvable.toLocaleString('en')} solvable ` +
    `(${stats.unsolvable.toLocaleString('en')} cannot reach the goal), ` +
    `the farthest at ${stats.max_distance}` +
    (here >= 0 ? `; this one is at ${here} (marked, with the number of ` +
                 'positions there)' : '');
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
  answer.analysis.forEach((s, i) => {
    const li = document.createElement('li');
    li.className = s.optimal ? 'optimal'
      : s.category === 'unsolvable' ? 'unsolvable'
      : s.distance === answer.distance ? 'level' : 'losing';
    li.dataset.move = s.move;
    const num = document.createElement('span');  /* not a list marker, */
    num.className = 'num';                       /* so it can be measured */
    num.textContent = `${i + 1}.`;
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = s.move;
    const d = document.createElement('span');
    d.className = 'dist';
    d.textContent = s.distance === null ? 'unsolvable' : `→ ${s.distance}`;
    li.append(num, b, d);
    b.addEventListener('click', () => play(s.move));
    li.addEventListener('mouseenter', () => showBoard(s.board, answer.input));
    li.addEventListener('mouseleave', () => showBoard(answer.input, null));
    ol.appendChild(li);
  });
  if (!answer.analysis.length) {
    const li = document.createElement('li');
    li.textContent = answer.distance === 0 ? 'the goal: nothing left to do'
                                           : 'no legal move';
    ol.appendChild(li);
  }
}

/* The board (with a preview's changed cells against 'other') and the
 * goal's marks over it. */
function showBoard(board, other) {
  const goal = GOALS[state.puzzle] || {};
  const geo = drawBoard($('board'), board,
                        { other, onCell: other ? null : clickCell });
  $('boards').classList.toggle('row', geo.cells.length === 1);
  drawGoalMarks($('board'), geo, { zone: goal.zone,
                                   line: goal.line && !other });
}

/* The goal beside the board: see GOALS. */
function showGoal() {
  const goal = GOALS[state.puzzle] || {};
  const n = answer.moves.length;
  const last = n ? answer.moves[n - 1].board
    : answer.distance === 0 ? answer.input : null;
  const board = goal.board ? goal.board(answer, last) : last;
  let caption = goal.caption || 'Goal: where the optimal line ends';
  $('goal-fig').dataset.puzzle = state.puzzle;
  if (board) {
    const geo = drawBoard($('goal'), board,
      { scale: goal.scale || 0.6,
        differs: goal.differs ? answer.input : null });
    drawGoalMarks($('goal'), geo, goal);
    $('goal').dataset.board = board;
    if (goal.many && board === last)
      caption += '; drawn: the goal the optimal line reaches';
  } else {
    $('goal').replaceChildren();
    delete $('goal').dataset.board;
    caption += ' (it cannot be reached from here)';
  }
  $('goal-caption').textContent = caption;
}

/* Under the board: swap's start, the side to move (four). */
function boardCaption() {
  const q = answer.query || {};
  if (q.target) return 'Start';
  if (q.to_move)
    return `${STONE_BLACK.includes(q.to_move) ? 'black' : 'white'} ` +
           `(${q.to_move}) to move`;
  return '';
}

function showAnswer() {
  $('error').hidden = true;
  showBoard(answer.input, null);
  $('board-caption').textContent = boardCaption();
  showGoal();
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
  $('goal').replaceChildren();
  $('goal-caption').textContent = $('board-caption').textContent = '';
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
      farthestNext = 0;
    }
    answer = await getJSON(queryURL());
    fillDistance();
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

/* ---- starts at a chosen distance, and the farthest ---------------------- */

let farthestNext = 0;      /* the next of stats.farthest to load */

/* Loads a position by its code (what /random and /stats give) as a new
 * start, saying where it came from. */
function loadCode(code, origin) {
  state.position = code;
  state.options = {};
  state.moves = [];
  fillSetup();
  $('origin').textContent = origin;
  history.pushState(null, '', toHash());
  return refresh();
}

/* A position drawn at random at the distance asked for, among those like
 * the current one (its part of the table: swap's target, frog's n), with a
 * fresh seed.  Tables of residues are searched, which takes seconds. */
async function randomAt() {
  const d = Number($('at').value);
  if (busy) return;
  if ($('at').value === '' || !Number.isInteger(d) || d < 0) {
    $('origin').textContent = 'give a distance: a whole number from 0';
    return;
  }
  const seed = Math.floor(Math.random() * 2 ** 32);
  const q = new URLSearchParams({ metric: state.metric, distance: d, seed });
  if (answer && state.position) q.set('position', state.position);
  if (answer)
    for (const [k, v] of Object.entries(state.options)) if (v) q.set(k, v);
  busy = true;
  $('random').disabled = $('farthest').disabled = true;
  $('origin').textContent = `drawing a position at distance ${d}…`;
  try {
    const r = await getJSON(
      `api/v1/${encodeURIComponent(state.puzzle)}/random?${q}`);
    busy = false;
    await loadCode(r.positions[0],
                   `a random position at distance ${d} (seed ${seed})`);
  } catch (e) {
    $('origin').textContent = e.message;
  } finally {
    busy = false;
    $('random').disabled = $('farthest').disabled = false;
  }
}

/* The table's farthest positions (up to 8, from /stats), one per click. */
function farthest() {
  if (busy || !stats || !stats.farthest.length) return;
  const k = farthestNext % stats.farthest.length;
  farthestNext = k + 1;
  loadCode(stats.farthest[k], `farthest position ${k + 1} of ` +
           `${stats.farthest.length} (distance ${stats.max_distance})`);
}

/* The distance box: up to the table's farthest; for a new table, the
 * current position's distance (another as hard as this one), else the
 * farthest. */
function fillDistance() {
  const at = $('at');
  if (!stats || at.dataset.table === statsKey) return;
  at.max = stats.max_distance;
  at.value = answer && answer.distance !== null ? answer.distance
                                                : stats.max_distance;
  at.dataset.table = statsKey;
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
  $('origin').textContent = '';
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
    $('origin').textContent = '';
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
  $('random').addEventListener('click', randomAt);
  $('at').addEventListener('keydown', e => {
    if (e.key === 'Enter') randomAt();
  });
  $('farthest').addEventListener('click', farthest);
  window.addEventListener('resize', drawChart);
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
    $('origin').textContent = '';
    fromHash();
    fillSetup();
    refresh();
  };
  window.addEventListener('popstate', navigate);
  window.addEventListener('hashchange', navigate);
  refresh();
}

main();
