/* web/app.js: the page over tbserve's JSON API (/api/v1/).
 *
 * State: a puzzle, a metric, the position as typed (or a named start), the
 * puzzle's query options, and the moves played since.  All of it lives in the
 * URL's fragment (#puzzle=..&metric=..&position=..&moves=..), so a position
 * can be shared; the server plays the moves (moves=M1,M2,..), so the page
 * needs no puzzle's rules.  What it knows of a built-in puzzle is how to
 * draw it: Klotski's letters as blocks, the other puzzles' cells as stones,
 * and beside the board its goal (GOALS: swap's target, where Klotski's 2x2
 * block must go, four's line, frog's exchanged row).  A described puzzle
 * (one with a "description" in /api/v1/puzzles) needs nothing here: its
 * pieces are the answer's letters, drawn as blocks of their own shapes
 * coloured by shape, its walls and empty characters and goals come from
 * the description, and its drawn start is its named start.  Blocks are
 * played by picking one up and clicking one of its places (the legal moves
 * that move it, from the answer's analysis).  Random starts at a chosen
 * distance come from /random, the farthest ones from /stats.
 *
 * A puzzle answered by search (its metric "search": true in /puzzles: no
 * full table, so no analysis, /stats, /random or moves=) shows its optimal
 * line, "found by search, proven optimal"; playing along the line loads the
 * board reached as the position, and back returns to the boards left
 * (trail).
 *
 * Below it, "play a level": a family's levels (/api/v1/levels), a level
 * of the moves chosen and its optimal line, walked move by move.
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

/* A puzzle's named starts: STARTS, or a described puzzle's drawn start. */
function startsOf(p) {
  if (p.start)
    return [{ name: 'the start as drawn', position: p.start.split('/')
                                                      .join('\n') }];
  return STARTS[p.name] || [];
}

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
let trail = [];            /* a searched puzzle: the positions played from */

/* The current puzzle is answered by search, without a full table. */
function searched() {
  const p = puzzles.find(x => x.name === state.puzzle);
  const m = p && p.metrics.find(x => x.name === state.metric);
  return Boolean(m && m.search);
}

/* The legal moves the page knows: the analysis; for a searched puzzle,
 * the first move of the optimal line. */
function legalMoves() {
  if (answer.analysis) return answer.analysis;
  return answer.moves.slice(0, 1).map(m => ({ ...m, optimal: true }));
}

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
  state.moves = q.get('moves') && !searched() ? q.get('moves').split(',')
                                               : [];
  if (!state.position && !Object.keys(state.options).length) {
    const s = startsOf(p)[0];                 /* nothing given: its start */
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

/* ---- described puzzles ------------------------------------------------- */

/* What the page reads of a described puzzle's canonical description
 * (/api/v1/puzzles gives it): the characters that draw an empty cell and a
 * wall, the goal patterns (rows joined by newlines), the sources, and which
 * pieces are told apart ('all', or their letters). */
function parseDescription(text) {
  const d = { empty: '.', wall: '#', goals: [], sources: [], distinct: '' };
  for (const line of text.split('\n')) {
    const sp = line.indexOf(' ');
    if (sp < 0) continue;
    const key = line.slice(0, sp), val = line.slice(sp + 1).trim();
    if (key === 'empty') d.empty += val.replace(/\s/g, '');
    else if (key === 'wall') d.wall += val.replace(/\s/g, '');
    else if (key === 'goal') d.goals.push(val.split('/').join('\n'));
    else if (key === 'source') d.sources.push(val);
    else if (key === 'distinct') d.distinct = val;
  }
  return d;
}

/* The current (or the named) puzzle's parsed description, null for a
 * built-in puzzle. */
function described(name = state.puzzle) {
  const p = puzzles.find(x => x.name === name);
  if (!p || !p.description) return null;
  if (!p.parsed) p.parsed = parseDescription(p.description);
  return p.parsed;
}

/* Puzzles drawn as blocks (and played by picking a piece up and putting it
 * down): Klotski and every described puzzle; the others are stones. */
const blocky = () => state.puzzle === 'klotski' || described() !== null;

/* How a board's characters are read: empty, wall, or a piece. */
function cellKinds(cells) {
  const d = described();
  if (d) {
    return { empty: ch => d.empty.includes(ch),
             wall: ch => d.wall.includes(ch) };
  }
  const e = klotskiEmpty(cells);
  return { empty: ch => ch === e, wall: () => false };
}

/* ---- pieces: shapes, colours, outlines --------------------------------- */

/* A piece's shape with its position taken out: rows x columns, then its
 * rows as 1 (a cell of the piece) and 0, e.g. '2x2:11/10' for an L. */
function shapeKey(cells) {
  const r0 = Math.min(...cells.map(x => x[0]));
  const c0 = Math.min(...cells.map(x => x[1]));
  const h = Math.max(...cells.map(x => x[0])) - r0 + 1;
  const w = Math.max(...cells.map(x => x[1])) - c0 + 1;
  const g = Array.from({ length: h }, () => Array(w).fill('0'));
  for (const [r, c] of cells) g[r - r0][c - c0] = '1';
  return `${h}x${w}:` + g.map(r => r.join('')).join('/');
}

const rectangular = key => !key.split(':')[1].includes('0');

/* A colour per shape, the same on every board and in every puzzle: the
 * small shapes have colours chosen to be told apart (Klotski's four as
 * before), any other shape a hue hashed from its key. */
const SHAPE_COLOURS = {
  '1x1:1': '#d4ac0d', '1x2:11': '#2e86c1', '2x1:1/1': '#239b56',
  '2x2:11/11': '#c0392b', '1x3:111': '#7d3c98', '3x1:1/1/1': '#148f77',
  '2x2:11/10': '#d35400', '2x2:11/01': '#c2185b', '2x2:10/11': '#34495e',
  '2x2:01/11': '#6e2c00'
};

function shapeColour(key) {
  if (SHAPE_COLOURS[key]) return SHAPE_COLOURS[key];
  let h = 2166136261;                           /* FNV-1a */
  for (const ch of key) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return `hsl(${h % 360}, ${45 + (h >>> 9) % 20}%, ${32 + (h >>> 17) % 12}%)`;
}

/* The pieces of a grid: each 4-connected group of cells drawn with one
 * character that isPiece accepts, in reading order, with its shape.  split:
 * a group that is not a rectangle is taken cell by cell (Klotski's A-K
 * notation may draw two pieces with one letter). */
function findPieces(cells, isPiece, split = false) {
  const seen = cells.map(r => r.map(() => false));
  const out = [];
  cells.forEach((row, r) => row.forEach((ch, c) => {
    if (seen[r][c] || !isPiece(ch)) return;
    const comp = [], stack = [[r, c]];
    seen[r][c] = true;
    while (stack.length) {
      const [y, x] = stack.pop();
      comp.push([y, x]);
      for (const [dy, dx] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const yy = y + dy, xx = x + dx;
        if (cells[yy] && cells[yy][xx] === ch && !seen[yy][xx]) {
          seen[yy][xx] = true;
          stack.push([yy, xx]);
        }
      }
    }
    comp.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const key = shapeKey(comp);
    if (split && !rectangular(key))
      for (const x of comp) out.push({ ch, cells: [x], key: '1x1:1' });
    else out.push({ ch, cells: comp, key });
  }));
  return out;
}

const cellsKey = cells => cells.map(([r, c]) => `${r},${c}`).join(' ');
const hasCell = (cells, r, c) => cells.some(([y, x]) => y === r && x === c);

/* The outline of a set of cells (any shape, holes too) as an SVG path:
 * cells of size units from (ox, oy), the outline moved inset units inwards
 * and its corners rounded by radius.  The cells' free edges are walked
 * clockwise (the piece on the right), runs in one direction make a side,
 * and each corner moves along the sum of its two sides' inward normals. */
function outline(cells, size, ox, oy, inset, radius) {
  const has = new Set(cells.map(([r, c]) => `${r},${c}`));
  const from = new Map();                 /* "x,y" -> edges [x, y, dx, dy] */
  const add = (x, y, dx, dy) => {
    const k = `${x},${y}`;
    if (!from.has(k)) from.set(k, []);
    from.get(k).push([x, y, dx, dy]);
  };
  for (const [r, c] of cells) {
    if (!has.has(`${r - 1},${c}`)) add(c, r, 1, 0);
    if (!has.has(`${r},${c + 1}`)) add(c + 1, r, 0, 1);
    if (!has.has(`${r + 1},${c}`)) add(c + 1, r + 1, -1, 0);
    if (!has.has(`${r},${c - 1}`)) add(c, r + 1, 0, -1);
  }
  let d = '';
  for (const list of from.values()) {
    while (list.length) {
      const loop = [list.pop()];
      const [sx, sy] = loop[0];
      for (;;) {
        const [x, y, dx, dy] = loop[loop.length - 1];
        if (x + dx === sx && y + dy === sy) break;
        const next = from.get(`${x + dx},${y + dy}`) || [];
        if (!next.length) break;
        /* where two corners touch: the right turn, then straight on */
        const turns = [[-dy, dx], [dx, dy], [dy, -dx]];
        let i = -1;
        for (const [tx, ty] of turns) {
          i = next.findIndex(e => e[2] === tx && e[3] === ty);
          if (i >= 0) break;
        }
        loop.push(next.splice(Math.max(i, 0), 1)[0]);
      }
      const corners = [];
      loop.forEach((e, i) => {
        const p = loop[(i + loop.length - 1) % loop.length];
        if (p[2] === e[2] && p[3] === e[3]) return;
        corners.push([ox + e[0] * size - inset * (p[3] + e[3]),
                      oy + e[1] * size + inset * (p[2] + e[2])]);
      });
      d += roundedPath(corners, radius);
    }
  }
  return d;
}

function roundedPath(pts, radius) {
  const n = pts.length, f = v => `${+v[0].toFixed(2)},${+v[1].toFixed(2)}`;
  let d = '';
  pts.forEach((v, i) => {
    const p = pts[(i + n - 1) % n], q = pts[(i + 1) % n];
    const lp = Math.hypot(p[0] - v[0], p[1] - v[1]);
    const lq = Math.hypot(q[0] - v[0], q[1] - v[1]);
    const r = Math.min(radius, lp / 2, lq / 2);
    const a = [v[0] + (p[0] - v[0]) * r / lp, v[1] + (p[1] - v[1]) * r / lp];
    const b = [v[0] + (q[0] - v[0]) * r / lq, v[1] + (q[1] - v[1]) * r / lq];
    d += `${i ? 'L' : 'M'}${f(a)} Q${f(v)} ${f(b)} `;
  });
  return d + 'Z ';
}

/* Where a piece's label goes, in cells: a rectangle's centre, else the
 * centre of its cell nearest the middle of its cells. */
function labelAt(cells) {
  const n = cells.length;
  const mr = cells.reduce((s, x) => s + x[0], 0) / n + 0.5;
  const mc = cells.reduce((s, x) => s + x[1], 0) / n + 0.5;
  if (rectangular(shapeKey(cells))) return [mr, mc];
  const [r, c] = cells.reduce((best, x) =>
    Math.hypot(x[0] + 0.5 - mr, x[1] + 0.5 - mc) <
    Math.hypot(best[0] + 0.5 - mr, best[1] + 0.5 - mc) ? x : best);
  return [r + 0.5, c + 0.5];
}

function drawPiece(parent, p, ox, oy, cell, label = true) {
  const g = el('g', { class: 'piece', 'data-piece': p.ch,
                      'data-shape': p.key, 'data-cells': cellsKey(p.cells) },
               parent);
  el('path', { d: outline(p.cells, cell, ox, oy, 3, 8),
               fill: shapeColour(p.key), 'fill-rule': 'evenodd' }, g);
  if (label) {
    const [r, c] = labelAt(p.cells);
    el('text', { x: ox + c * cell, y: oy + r * cell + 7,
                 'text-anchor': 'middle', class: 'label' }, g)
      .textContent = p.ch;
  }
  return g;
}

/* ---- boards ------------------------------------------------------------ */

const CELL = 60, PAD = 6;

/* One grid at (x0, y0) of an SVG: its tray, cells (walls dark), and its
 * pieces as blocks or stones.  o: kinds (cellKinds), other and differs
 * (boards whose differing cells are marked changed or still to change),
 * goal (a goal pattern: '?' cells faint, empty cells marked). */
function drawGrid(parent, cells, x0, y0, o) {
  const h = cells.length, w = Math.max(...cells.map(r => r.length));
  el('rect', { x: x0, y: y0, width: w * CELL + 2 * PAD,
               height: h * CELL + 2 * PAD, rx: 8, class: 'tray' }, parent);
  const other = o.other ? rows(o.other).map(r => [...r]) : null;
  const differs = o.differs ? rows(o.differs).map(r => [...r]) : null;
  const kinds = o.kinds;
  for (let r = 0; r < h; r++) {
    for (let c = 0; c < w; c++) {
      const x = x0 + PAD + c * CELL, y = y0 + PAD + r * CELL;
      const ch = cells[r][c];
      let cls = 'cell';
      if (kinds && kinds.wall(ch)) cls = 'wall';
      else if (o.goal && ch === '?') cls = 'cell any';
      else if (o.goal && kinds.empty(ch)) cls = 'cell must-empty';
      else if (other && other[r] && other[r][c] !== ch) cls = 'cell changed';
      else if (differs && differs[r] && differs[r][c] !== ch)
        cls = 'cell differs';
      el('rect', { x, y, width: CELL, height: CELL, class: cls,
                   'data-r': r, 'data-c': c }, parent);
      if (cls === 'cell must-empty')
        el('circle', { cx: x + CELL / 2, cy: y + CELL / 2, r: CELL * 0.16,
                       class: 'empty-mark' }, parent);
    }
  }
  if (!kinds) {
    drawStones(parent, cells, x0 + PAD, y0 + PAD);
    return [];
  }
  const pieces = findPieces(cells, ch => ch !== undefined && ch !== ' ' &&
    ch !== '?' && !kinds.empty(ch) && !kinds.wall(ch), !described());
  for (const p of pieces) drawPiece(parent, p, x0 + PAD, y0 + PAD, CELL);
  return pieces;
}

/* Draws board text into svg and returns its geometry (cells, pieces).
 * opts: other, a board whose differing cells are marked as changed (a
 * move's preview); differs, a board whose differing cells are marked as
 * still to change (swap's target); onCell(r, c, y, x), called with the
 * cell clicked and the point in cells; scale, of the drawing's width (1:
 * cells of 60 units shown at most 520 px wide). */
function drawBoard(svg, board, opts = {}) {
  const cells = rows(board).map(r => [...r]);
  const h = cells.length, w = Math.max(...cells.map(r => r.length));
  svg.replaceChildren();
  const W = w * CELL + 2 * PAD, H = h * CELL + 2 * PAD;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', Math.round(Math.min(W, 520) * (opts.scale || 1)));
  const kinds = blocky() ? cellKinds(cells) : null;
  const pieces = drawGrid(svg, cells, 0, 0, { ...opts, kinds });
  const onCell = opts.onCell;
  svg.onclick = onCell ? e => {
    const pt = new DOMPoint(e.clientX, e.clientY)
      .matrixTransform(svg.getScreenCTM().inverse());
    const y = (pt.y - PAD) / CELL, x = (pt.x - PAD) / CELL;
    if (y >= 0 && x >= 0 && y < h && x < w)
      onCell(Math.floor(y), Math.floor(x), y, x);
  } : null;
  svg.classList.toggle('playable', !!onCell);
  return { cells, cell: CELL, pad: PAD, pieces };
}

/* A described puzzle's goal patterns side by side in svg: the pieces
 * required as blocks in their shapes' colours, walls dark, '?' cells
 * faint, empty cells marked. */
function drawGoals(svg, goals) {
  const d = described();
  const grids = goals.map(g => rows(g).map(r => [...r]));
  const n = grids.length, gap = 24;
  const across = n <= 2 ? n : Math.ceil(Math.sqrt(n));
  const gw = Math.max(...grids.map(g => Math.max(...g.map(r => r.length))))
    * CELL + 2 * PAD;
  const gh = Math.max(...grids.map(g => g.length)) * CELL + 2 * PAD;
  const W = across * gw + (across - 1) * gap;
  const H = Math.ceil(n / across) * (gh + gap) - gap;
  svg.replaceChildren();
  svg.onclick = null;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', Math.round(Math.min(W, 760) * 0.6));
  const kinds = { empty: ch => d.empty.includes(ch),
                  wall: ch => d.wall.includes(ch) };
  grids.forEach((cells, i) => {
    const g = el('g', { class: 'goal-board', 'data-goal': i }, svg);
    drawGrid(g, cells, (i % across) * (gw + gap),
             Math.floor(i / across) * (gh + gap), { kinds, goal: true });
  });
}

/* The pieces a described puzzle's goal requires, as cells, when there is
 * one goal and it asks for one or two pieces: marked on the board. */
function goalOutlines(d) {
  if (d.goals.length !== 1) return [];
  const cells = rows(d.goals[0]).map(r => [...r]);
  const p = findPieces(cells, ch => ch !== '?' && !d.empty.includes(ch) &&
                                    !d.wall.includes(ch));
  return p.length <= 2 ? p.map(x => x.cells) : [];
}

/* The goal's marks over a drawn board: Klotski's zone as a dashed frame,
 * a described puzzle's required pieces as dashed outlines, four's line of
 * one colour (when the board has one) as a stroke through its stones. */
function drawGoalMarks(svg, geo, goal) {
  const { cells, cell, pad } = geo;
  if (goal.zone) {
    const z = goal.zone;
    el('rect', { x: pad + z.c * cell + 1, y: pad + z.r * cell + 1,
                 width: z.w * cell - 2, height: z.h * cell - 2, rx: 10,
                 class: 'goal-zone', 'data-r': z.r, 'data-c': z.c,
                 'data-w': z.w, 'data-h': z.h }, svg);
  }
  for (const o of goal.outlines || []) {
    el('path', { d: outline(o, cell, pad, pad, 1, 10),
                 class: 'goal-zone goal-piece', 'data-cells': cellsKey(o) },
       svg);
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

function drawStones(parent, cells, ox, oy) {
  cells.forEach((row, r) => row.forEach((ch, c) => {
    const black = STONE_BLACK.includes(ch), white = STONE_WHITE.includes(ch);
    if (!black && !white) return;
    el('circle', {
      cx: ox + (c + 0.5) * CELL, cy: oy + (r + 0.5) * CELL, r: CELL * 0.38,
      class: black ? 'stone black' : 'stone white', 'data-piece': ch },
       parent);
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

/* The class of a move, in the list and on the board. */
function moveClass(s) {
  return s.optimal ? 'optimal'
    : s.category === 'unsolvable' ? 'unsolvable'
    : s.distance === answer.distance ? 'level' : 'losing';
}

let boardGeo = null;       /* the current position as drawn */
let picked = null;         /* the cells of the piece picked up, or null */

/* A piece's legal moves (those that change one of its cells: only it can),
 * each with the cells the piece covers after it. */
function movesOf(piece) {
  const out = [];
  for (const s of legalMoves()) {
    const after = rows(s.board).map(r => [...r]);
    const changed = changedCells(answer.input, s.board);
    if (!changed.some(([r, c]) => hasCell(piece.cells, r, c))) continue;
    const stays = piece.cells.filter(([r, c]) =>
      !hasCell(changed, r, c));
    const enters = changed.filter(([r, c]) =>
      after[r][c] === piece.ch);
    out.push({ s, cells: stays.concat(enters) });
  }
  return out;
}

const pickedPiece = () => picked && boardGeo &&
  boardGeo.pieces.find(p => cellsKey(p.cells) === picked);

/* A click on the board.  Blocks: a click on a piece picks it up and shows
 * where it can go (dashed, coloured as in the move list); a click on one of
 * those places plays that move (where places overlap, the one whose middle
 * is nearest the click); a click on the piece again, or elsewhere, puts it
 * down.  Stones: a click on a cell plays the best move that changes it. */
function clickCell(r, c, y, x) {
  if (!answer || busy) return;
  if (!blocky()) {
    const m = legalMoves().find(s =>
      hasCell(changedCells(answer.input, s.board), r, c));
    if (m) play(m.move);
    return;
  }
  const held = pickedPiece();
  if (held && !hasCell(held.cells, r, c)) {
    const mid = cells => [cells.reduce((t, p) => t + p[0], 0) / cells.length,
                          cells.reduce((t, p) => t + p[1], 0) / cells.length];
    const dist = m => {
      const [my, mx] = mid(m.cells);
      return Math.hypot(my + 0.5 - y, mx + 0.5 - x);
    };
    const to = movesOf(held).filter(m => hasCell(m.cells, r, c))
      .sort((a, b) => dist(a) - dist(b))[0];
    if (to) {
      picked = null;
      play(to.s.move);
      return;
    }
  }
  const p = boardGeo.pieces.find(q => hasCell(q.cells, r, c));
  picked = p && p !== held && movesOf(p).length ? cellsKey(p.cells) : null;
  showBoard(answer.input, null);
  if (p && p !== held && !picked)
    $('board-caption').textContent = `${p.ch} cannot move`;
}

/* The piece picked up, highlighted, and the places it can go. */
function drawPicked(svg) {
  const p = pickedPiece();
  if (!p) return;
  const g = [...svg.querySelectorAll('g.piece')]
    .find(e => e.dataset.cells === picked);
  if (g) g.classList.add('picked');
  const moves = movesOf(p);
  for (const m of moves.slice().reverse()) {      /* the best on top */
    const k = moveClass(m.s);
    const d = el('g', { class: `dest ${k}`, 'data-move': m.s.move,
                        'data-cells': cellsKey(m.cells) }, svg);
    el('path', { d: outline(m.cells, CELL, PAD, PAD, 7, 9) }, d);
    const [r, c] = labelAt(m.cells);
    el('text', { x: PAD + c * CELL, y: PAD + r * CELL + 6,
                 'text-anchor': 'middle' }, d).textContent =
      m.s.distance === null ? '∞' : m.s.distance;
  }
  $('board-caption').textContent = `${p.ch}: click a dashed place (the ` +
    'distance after the move) to move it there, or the piece to put it down';
}

function showMoves() {
  const ol = $('moves');
  ol.replaceChildren();
  const line = !answer.analysis;     /* searched: the optimal line */
  $('moves-title').textContent = line ? 'The optimal line, found by search'
                                      : 'Legal moves';
  $('legend').hidden = line;
  const list = line ? answer.moves.map(m => ({ ...m, optimal: true }))
                    : answer.analysis;
  list.forEach((s, i) => {
    const li = document.createElement('li');
    li.className = moveClass(s);
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
    b.addEventListener('click', () => line ? alongLine(i) : play(s.move));
    li.addEventListener('mouseenter', () => showBoard(s.board, answer.input));
    li.addEventListener('mouseleave', () => showBoard(answer.input, null));
    ol.appendChild(li);
  });
  if (!list.length) {
    const li = document.createElement('li');
    li.textContent = answer.distance === 0 ? 'the goal: nothing left to do'
                                           : 'no legal move';
    ol.appendChild(li);
  }
}

/* The board (with a preview's changed cells against 'other'), the goal's
 * marks over it, and the piece picked up. */
function showBoard(board, other) {
  const d = described();
  const goal = d ? { outlines: goalOutlines(d) } : GOALS[state.puzzle] || {};
  const geo = drawBoard($('board'), board,
                        { other, onCell: other ? null : clickCell });
  $('boards').classList.toggle('row', geo.cells.length === 1);
  drawGoalMarks($('board'), geo, { zone: goal.zone, outlines: goal.outlines,
                                   line: goal.line && !other });
  for (const t of $('board').querySelectorAll('g.piece text.label'))
    $('board').appendChild(t);        /* the pieces' names over the marks */
  if (other) return;
  boardGeo = geo;
  $('board-caption').textContent = boardCaption();
  drawPicked($('board'));
}

/* A described puzzle's goals, from its description. */
function describedGoal(d) {
  const cells = d.goals.join('');
  const required = [...cells].filter(ch => ch !== '?' && ch !== '\n' &&
    !d.empty.includes(ch) && !d.wall.includes(ch));
  const alike = d.distinct !== 'all' &&
    required.some(ch => !d.distinct.includes(ch));
  drawGoals($('goal'), d.goals);
  $('goal').dataset.board = d.goals.join('\n\n');
  return (d.goals.length > 1 ? `Goal: any of these ${d.goals.length}: `
                             : 'Goal: ') +
    'the pieces drawn where they must stand' +
    (alike ? ' (a piece of the same shape and colour will do)' : '') +
    (cells.includes('?') ? '; faint cells: anything' : '') +
    ([...cells].some(ch => d.empty.includes(ch)) ? '; ○: empty' : '');
}

/* The goal beside the board: a described puzzle's from its description,
 * a built-in one's as GOALS says. */
function showGoal() {
  $('goal-fig').dataset.puzzle = state.puzzle;
  const d = described();
  if (d) {
    $('goal-caption').textContent = describedGoal(d);
    return;
  }
  const goal = GOALS[state.puzzle] || {};
  const n = answer.moves.length;
  const last = n ? answer.moves[n - 1].board
    : answer.distance === 0 ? answer.input : null;
  const board = goal.board ? goal.board(answer, last) : last;
  let caption = goal.caption || 'Goal: where the optimal line ends';
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

/* Under the board: swap's start, the side to move (four), how to move a
 * block. */
function boardCaption() {
  const q = answer.query || {};
  if (q.target) return 'Start';
  if (q.to_move)
    return `${STONE_BLACK.includes(q.to_move) ? 'black' : 'white'} ` +
           `(${q.to_move}) to move`;
  if (blocky() && legalMoves().length)
    return 'Click a piece, then where it should go';
  return '';
}

function showAnswer() {
  $('error').hidden = true;
  showBoard(answer.input, null);
  showGoal();
  const solved = answer.distance === 0;
  $('distance').textContent =
    answer.distance === null ? '∞' : answer.distance;
  const found = answer.search
    ? `found by search, proven optimal (${answer.search.nodes
        .toLocaleString('en')} positions expanded, ` +
      `${answer.search.seconds.toFixed(3)} s)` : '';
  $('category').textContent = answer.category === 'goal' ? 'solved!'
    : answer.category === 'unsolvable' ? 'the goal cannot be reached'
    : found;
  $('status').className = solved ? 'goal' : answer.category;
  const played = searched() ? trail.length : state.moves.length;
  $('played').textContent = !played ? ''
    : searched() ? `${played} moves played along the line`
    : `${played} moves played: ${state.moves.join(', ')}`;
  $('code').textContent = answer.query && answer.query.code
    ? `code ${answer.query.code}` : '';
  $('back').disabled = $('first').disabled = !played;
  $('random').disabled = $('farthest').disabled = $('at').disabled =
    searched();
  $('forward').disabled = $('solve').disabled = !answer.moves.length;
  showMoves();
  drawChart();
}

function showError(msg) {
  answer = boardGeo = picked = null;
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
      stats = searched() ? null
        : await getJSON(`api/v1/${p}/stats?metric=${m}`).catch(() => null);
      farthestNext = 0;
    }
    answer = await getJSON(queryURL());
    picked = null;
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
  if (searched()) {
    alongLine(answer.moves.findIndex(m => m.move === move));
    return;
  }
  state.moves.push(move);
  history.pushState(null, '', toHash());
  refresh();
}

/* A searched puzzle: the board after move i of the optimal line becomes
 * the position (the server plays no moves without a full table). */
function alongLine(i) {
  if (busy || !answer || i < 0 || i >= answer.moves.length) return;
  for (let k = 0; k <= i; k++)
    trail.push(k ? answer.moves[k - 1].board : answer.input);
  state.position = answer.moves[i].board;
  state.options = {};
  state.moves = [];
  $('position').value = state.position;
  history.pushState(null, '', toHash());
  refresh();
}

/* A searched puzzle: back to the position n boards before (all: the
 * first). */
function backAlong(n) {
  if (busy || !trail.length) return;
  state.position = trail.splice(Math.max(0, trail.length - n))[0];
  $('position').value = state.position;
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
    ...startsOf(p).map((s, i) => new Option(s.name, String(i))));
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
  showSources(described(p.name));
}

/* A described puzzle's sources under its summary, their addresses as
 * links; folded on a narrow screen, to keep the board in sight. */
function showSources(d) {
  const list = $('sources');
  list.replaceChildren(...(d ? d.sources : []).map(src => {
    const li = document.createElement('li');
    for (const part of src.split(/(https?:\/\/[^\s,;]+)/)) {
      if (!/^https?:\/\//.test(part)) {
        li.append(part);
        continue;
      }
      const a = document.createElement('a');
      a.href = a.textContent = part;
      a.rel = 'noreferrer';
      li.appendChild(a);
    }
    return li;
  }));
  $('sources-box').hidden = !list.children.length;
  $('sources-box').open = matchMedia('(min-width: 700px)').matches;
  $('sources-count').textContent = list.children.length;
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
  trail = [];
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
    const s = startsOf(p)[0];
    state.position = s ? s.position : '';
    state.options = s ? { ...(s.options || {}) } : {};
    state.moves = [];
    trail = [];
    fillSetup();
    $('origin').textContent = '';
    history.pushState(null, '', toHash());
    refresh();
  });
  $('metric').addEventListener('change', load);
  $('start').addEventListener('change', () => {
    const p = puzzles.find(x => x.name === state.puzzle);
    const s = startsOf(p)[Number($('start').value)];
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
  document.addEventListener('keydown', e => {
    if (e.key !== 'Escape' || !picked || !answer) return;
    picked = null;                              /* put the block down */
    showBoard(answer.input, null);
  });
  $('back').addEventListener('click', () => {
    if (searched()) return backAlong(1);
    if (busy || !state.moves.length) return;
    state.moves.pop();
    history.pushState(null, '', toHash());
    refresh();
  });
  $('first').addEventListener('click', () => {
    if (searched()) return backAlong(Infinity);
    if (busy) return;
    state.moves = [];
    history.pushState(null, '', toHash());
    refresh();
  });
  $('forward').addEventListener('click', () => {
    if (answer && answer.moves.length) play(answer.moves[0].move);
  });
  $('solve').addEventListener('click', () => {
    if (answer && searched()) return alongLine(answer.moves.length - 1);
    if (!answer || busy || !answer.moves.length) return;
    state.moves.push(...answer.moves.map(m => m.move));
    history.pushState(null, '', toHash());
    refresh();
  });
  const navigate = () => {
    if (location.hash === toHash()) return;
    $('origin').textContent = '';
    trail = [];
    fromHash();
    fillSetup();
    refresh();
  };
  window.addEventListener('popstate', navigate);
  window.addEventListener('hashchange', navigate);
  refresh();
}

/* ---- a family's levels (/api/v1/levels) -------------------------------
 * Apart from the puzzle above: a family's levels table (tbgen --family)
 * gives a level of the moves chosen (/play, drawn by a seed the "another"
 * button raises), with an optimal line the server finds by a search of
 * its component; the page shows the board and walks the line.  Boards are
 * the answer's: '.' empty, '#' a wall, a letter a piece. */

const level = { seed: 0, answer: null, at: 0 };
const LEVEL_KINDS = { empty: ch => ch === '.', wall: ch => ch === '#' };

async function levelStats() {
  const fam = $('family').value;
  try {
    const s = await getJSON(`api/v1/levels/${encodeURIComponent(fam)}/stats`);
    const most = s.counts.length ? s.counts[0][0] : 0;
    $('level-moves').max = most;
    $('level-moves').value = most;
    $('level-n').textContent = most;
    $('level-info').textContent = `${s.levels} levels, ` +
      s.counts.map(([m, n]) => `${n} of ${m} moves`).join(', ');
  } catch (e) {
    $('level-info').textContent = e.message;
  }
}

async function playLevel(seed) {
  const fam = $('family').value, moves = $('level-moves').value;
  let got;
  try {
    got = await getJSON(`api/v1/levels/${encodeURIComponent(fam)}/play?` +
                        new URLSearchParams({ moves, seed }));
  } catch (e) {
    $('level-info').textContent = e.message;
    return;
  }
  const l = got.level;
  level.seed = seed;
  level.answer = got.answer;
  $('level-next').disabled = false;
  $('level-info').textContent = `${fam}, level ${l.index + 1}: ${l.moves} ` +
    `moves, ${l.states} positions reachable (${l.board})`;
  $('level-line').replaceChildren(...got.answer.moves.map((m, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = m.move;
    b.addEventListener('click', () => levelStep(i + 1));
    li.append(b);
    return li;
  }));
  levelStep(0);
}

/* The board after i moves of the level's line. */
function levelStep(i) {
  const a = level.answer;
  if (!a) return;
  level.at = i = Math.max(0, Math.min(i, a.moves.length));
  const board = i ? a.moves[i - 1].board : a.input;
  const cells = rows(board).map(r => [...r]);
  const h = cells.length, w = Math.max(...cells.map(r => r.length));
  const svg = $('level-board');
  svg.replaceChildren();
  const W = w * CELL + 2 * PAD, H = h * CELL + 2 * PAD;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.setAttribute('width', Math.min(W, 360));
  drawGrid(svg, cells, 0, 0, { kinds: LEVEL_KINDS });
  $('level-caption').textContent = i === a.moves.length
    ? `solved in ${i} moves`
    : `${a.moves.length - i} moves to the goal` +
      (i ? ` (after ${a.moves[i - 1].move})` : '');
  [...$('level-line').children].forEach((li, k) =>
    li.classList.toggle('played', k < i));
}

async function levelsInit() {
  let families;
  try {
    families = (await getJSON('api/v1/levels')).families;
  } catch (e) {
    return;                                     /* an older tbserve */
  }
  if (!families.length) return;
  $('family').replaceChildren(...families.map(f => new Option(f, f)));
  $('levels').hidden = false;
  $('family').addEventListener('change', levelStats);
  $('level-moves').addEventListener('input', () => {
    $('level-n').textContent = $('level-moves').value;
  });
  $('level-play').addEventListener('click', () => playLevel(0));
  $('level-next').addEventListener('click', () => playLevel(level.seed + 1));
  $('level-back').addEventListener('click', () => levelStep(level.at - 1));
  $('level-forward').addEventListener('click',
                                      () => levelStep(level.at + 1));
  await levelStats();
}

main();
levelsInit();
