// SVG diagrams drawn from the emulator's trace of the solution kernels (lib/traced.mjs, through
// the checker): every box, arrow and count below comes from an access the kit's own kernel made
// when the emulator ran it. Events are per lane: {grid, block, thread, phase, op, array, index}.
// Each function returns { svg, facts }: facts are numbers the captions quote (counted here, from
// the same events).
import { DeckError } from './results.mjs';

const FONT = 'font-family="DejaVu Sans, Arial, sans-serif"';
const BLUE = '#2b6cb0', LIGHT = '#bee3f8', GREY = '#e2e8f0', DARK = '#1a202c', ORANGE = '#dd6b20', GREEN = '#2f855a';
const PALETTE = ['#90cdf4', '#fbd38d', '#9ae6b4', '#fbb6ce', '#d6bcfa', '#feb2b2', '#b2f5ea', '#faf089'];

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const text = (x, y, s, opts = '') => `<text x="${x}" y="${y}" ${FONT} ${opts}>${esc(s)}</text>`;
const rect = (x, y, w, h, fill, opts = '') => `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}" ${opts}/>`;
const svgDoc = (w, h, body) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
  `<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">` +
  `<path d="M0,0 L10,5 L0,10 z" fill="${BLUE}"/></marker></defs>` +
  rect(0, 0, w, h, '#ffffff') + body + '</svg>';

// The distinct phases of some events, in order (a phase number says only which comes first).
export const phasesOf = (events) => [...new Set(events.map((e) => e.phase))].sort((a, b) => a - b);

// Groups a tree reduction's events into steps: one step per barrier phase that has adds in it.
// An add is a write by a thread; its source is the other element the thread read in that phase.
function treeSteps(events) {
  const byPhase = new Map();
  for (const e of events) {
    if (!byPhase.has(e.phase)) byPhase.set(e.phase, new Map());
    const threads = byPhase.get(e.phase);
    if (!threads.has(e.thread)) threads.set(e.thread, { thread: e.thread, reads: [], writes: [] });
    (e.op === 'R' ? threads.get(e.thread).reads : threads.get(e.thread).writes).push(e.index);
  }
  return [...byPhase.keys()].sort((a, b) => a - b).map((phase) => {
    const adds = [...byPhase.get(phase).values()].filter((t) => t.writes.length).map((t) => {
      const dst = t.writes[0];
      const src = t.reads.find((i) => i !== dst);
      return { thread: t.thread, dst, src, reads: t.reads };
    });
    const stride = adds.length ? Math.abs(adds[0].src - adds[0].dst) : 0;
    return { phase, adds, stride };
  }).filter((s) => s.adds.length);
}

// Which threads add which pairs at each step of a 16-element block (labs 03 and 07).
export function reduceSteps(events, { n, block }) {
  const steps = treeSteps(events);
  const box = 40, left = 190, top = 34, rowH = 62;
  const w = left + n * box + 20, h = top + (steps.length + 1) * rowH - 12;
  let body = text(left, 20, `elements 0..${n - 1} of one block (blockDim.x = ${block})`, 'font-size="14" fill="#4a5568"');
  const row = (r, highlight) => {
    const y = top + r * rowH;
    for (let i = 0; i < n; i++) {
      const on = highlight.has(i);
      body += rect(left + i * box + 2, y, box - 4, 24, on ? LIGHT : GREY, `stroke="${on ? BLUE : '#a0aec0'}" stroke-width="1"`);
      body += text(left + i * box + box / 2, y + 17, i, `font-size="12" text-anchor="middle" fill="${DARK}"`);
    }
  };
  steps.forEach((s, r) => {
    const y = top + r * rowH;
    row(r, new Set(s.adds.flatMap((a) => [a.src, a.dst])));
    body += text(10, y + 17, `step ${r + 1}: stride ${s.stride}`, `font-size="14" fill="${DARK}" font-weight="bold"`);
    body += text(10, y + 38, `${s.adds.length} thread${s.adds.length > 1 ? 's' : ''}: ${threadList(s.adds.map((a) => a.thread))}`, `font-size="12" fill="${ORANGE}"`);
    for (const a of s.adds) { // arrows into the next row's copy of dst
      const x1 = left + a.src * box + box / 2, x2 = left + a.dst * box + box / 2;
      body += `<path d="M${x1},${y + 25} L${x2},${y + rowH - 2}" stroke="${BLUE}" stroke-width="1.4" fill="none" marker-end="url(#arrow)"/>`;
      if (a.src !== a.dst) body += `<path d="M${x2},${y + 25} L${x2},${y + rowH - 2}" stroke="${BLUE}" stroke-width="1.4" fill="none"/>`;
    }
  });
  row(steps.length, new Set([0]));
  body += text(10, top + steps.length * rowH + 17, 'element 0 = block sum', `font-size="13" fill="${GREEN}" font-weight="bold"`);
  return {
    svg: svgDoc(w, h, body),
    facts: { steps: steps.length, threadsPerStep: steps.map((s) => s.adds.map((a) => a.thread)) },
  };
}

function threadList(ts) {
  const shown = ts.length > 6 ? [...ts.slice(0, 5), '…', ts[ts.length - 1]] : ts;
  return shown.join(', ');
}

// Active lanes per warp per step for a block of 512 threads: where the divergence is.
// panels: [{name, events, block}]
export function warpActivity(scenarios) {
  const panels = scenarios.map(({ name, events, block }) => {
    const warps = block / 32;
    const steps = treeSteps(events).map((s) => {
      const lanes = new Array(warps).fill(0);
      for (const a of s.adds) lanes[Math.floor(a.thread / 32)]++;
      return { stride: s.stride, lanes };
    });
    return { name, warps, steps };
  });
  const cell = 26, labelW = 100, panelW = labelW + panels[0].warps * cell + 40;
  const rows = Math.max(...panels.map((p) => p.steps.length));
  const w = panelW * panels.length, h = 70 + rows * cell + 40;
  let body = '';
  const facts = {};
  panels.forEach((p, k) => {
    const x0 = k * panelW + 10;
    body += text(x0 + labelW, 22, p.name, `font-size="16" font-weight="bold" fill="${DARK}"`);
    for (let wp = 0; wp < p.warps; wp++) body += text(x0 + labelW + wp * cell + cell / 2, 52, wp, 'font-size="11" text-anchor="middle" fill="#4a5568"');
    body += text(x0, 52, 'stride \\ warp', 'font-size="11" fill="#4a5568"');
    let divergent = 0;
    p.steps.forEach((s, r) => {
      const y = 60 + r * cell;
      body += text(x0, y + 17, `${s.stride}`, `font-size="12" fill="${DARK}"`);
      s.lanes.forEach((lanes, wp) => {
        const fill = lanes === 0 ? '#f7fafc' : lanes === 32 ? BLUE : lanes >= 16 ? '#63b3ed' : LIGHT;
        body += rect(x0 + labelW + wp * cell, y, cell - 2, cell - 2, fill, 'stroke="#cbd5e0" stroke-width="0.5"');
        if (lanes) body += text(x0 + labelW + wp * cell + (cell - 2) / 2, y + 16, lanes, `font-size="10" text-anchor="middle" fill="${lanes === 32 ? '#fff' : DARK}"`);
        if (lanes > 0 && lanes < 32) divergent++;
      });
    });
    facts[p.name] = { divergentWarpSteps: divergent, warpSteps: p.steps.reduce((a, s) => a + s.lanes.filter((l) => l > 0).length, 0) };
  });
  body += text(10, h - 12, 'number = lanes of the warp that add at that step (of 32); empty = the whole warp is idle', 'font-size="13" fill="#4a5568"');
  return { svg: svgDoc(w, h, body), facts };
}

// Which addresses one warp instruction touches, and how many 32-byte sectors that is.
// rows: [{label, indices (per lane, null = inactive lane), elemBytes}]
export function laneAddresses(rows) {
  const w = 1100, rowH = 120, left = 20;
  let body = '';
  const facts = [];
  rows.forEach((r, k) => {
    const y = 10 + k * rowH;
    const active = r.indices.map((idx, lane) => ({ idx, lane })).filter((x) => x.idx != null);
    const perSector = 32 / r.elemBytes;
    const sectors = new Set(active.map((a) => Math.floor(a.idx / perSector)));
    const lo = Math.floor(Math.min(...active.map((a) => a.idx)) / perSector) * perSector;
    const hi = (Math.floor(Math.max(...active.map((a) => a.idx)) / perSector) + 1) * perSector;
    const span = hi - lo, scale = (w - 2 * left) / span;
    facts.push({ label: r.label, lanes: active.length, sectors: sectors.size, distinct: new Set(active.map((a) => a.idx)).size });
    body += text(left, y + 14, `${r.label}: ${active.length} active lanes, ${new Set(active.map((a) => a.idx)).size} distinct addresses, ${sectors.size} sector${sectors.size > 1 ? 's' : ''} of 32 B`, `font-size="14" font-weight="bold" fill="${DARK}"`);
    const laneW = (w - 2 * left) / 32;
    for (let lane = 0; lane < 32; lane++) {
      const on = r.indices[lane] != null;
      body += rect(left + lane * laneW + 1, y + 22, laneW - 2, 16, on ? ORANGE : GREY);
      if (lane % 8 === 0) body += text(left + lane * laneW + 2, y + 34, lane, 'font-size="10" fill="#fff"');
    }
    for (let s = lo / perSector; s < hi / perSector; s++) {
      const x = left + (s * perSector - lo) * scale;
      body += rect(x, y + 78, perSector * scale - 1, 18, sectors.has(s) ? BLUE : '#edf2f7', 'stroke="#a0aec0" stroke-width="0.5"');
    }
    // The bytes the lanes asked for, inside the sectors that move: the rest of each sector is waste.
    for (const idx of new Set(active.map((a) => a.idx))) body += rect(left + (idx - lo) * scale + 0.5, y + 84, Math.max(scale - 1, 1.5), 6, '#fbd38d');
    for (const a of active) {
      const x1 = left + a.lane * laneW + laneW / 2, x2 = left + (a.idx - lo + 0.5) * scale;
      body += `<line x1="${x1}" y1="${y + 38}" x2="${x2}" y2="${y + 78}" stroke="${ORANGE}" stroke-width="0.8" opacity="0.8"/>`;
    }
    body += text(left, y + 110, `elements ${lo}..${hi - 1} (${r.elemBytes}-byte ${r.elemBytes === 4 ? 'ints/floats' : 'values'}); blue = a sector the instruction moves, yellow = the bytes its lanes asked for`, 'font-size="11" fill="#4a5568"');
  });
  return { svg: svgDoc(w, rows.length * rowH + 10, body), facts };
}

// The per-lane indices of one warp-level access: the `nth` access of `array` with op `op` by
// threads lo..lo+31 of block `block` in phase `phase` (null for a lane that did not make it).
export function warpAccess(events, { block = 0, firstThread = 0, phase = null, array, op = 'R', nth = 0 }) {
  const seen = new Map();
  const indices = new Array(32).fill(null);
  for (const e of events) {
    if (e.block !== block || e.array !== array || e.op !== op || (phase != null && e.phase !== phase)) continue;
    const lane = e.thread - firstThread;
    if (lane < 0 || lane >= 32) continue;
    const k = seen.get(lane) ?? 0;
    if (k === nth) indices[lane] = e.index;
    seen.set(lane, k + 1);
  }
  return indices;
}

export function dstIndicesOfPhase(events, phase, firstThread = 0) {
  // The element each lane adds into (its write) in a phase: the address of the `+=` target.
  const indices = new Array(32).fill(null);
  for (const e of events) if (e.op === 'W' && e.phase === phase && e.thread >= firstThread && e.thread < firstThread + 32) indices[e.thread - firstThread] = e.index;
  return indices;
}

// Lab 00: which thread of which block handles each element of a 2-D matrix, and who is idle.
// Cells are labelled where they are large enough to hold a label (blocks of at most 8 x 8).
export function index2d(events, { rows, cols, side, grid_x, grid_y }) {
  const labelled = side <= 8;
  const cell = labelled ? 46 : Math.max(8, Math.floor(640 / Math.max(grid_x, grid_y) / side)), left = 30, top = 40;
  const W = grid_x * side, H = grid_y * side;
  const owner = new Map(); // "x,y" of the launch's thread -> element index written
  for (const e of events) if (e.op === 'W' && e.array === 'c') {
    const bx = e.block % grid_x, by = Math.floor(e.block / grid_x), tx = e.thread % side, ty = Math.floor(e.thread / side);
    owner.set(`${bx * side + tx},${by * side + ty}`, { index: e.index, block: e.block, tx, ty });
  }
  let body = text(left, 24, `${rows} x ${cols} matrix, blocks of ${side} x ${side} threads, grid ${grid_x} x ${grid_y}`, `font-size="15" fill="${DARK}"`);
  let idle = 0;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const o = owner.get(`${x},${y}`);
    const block = Math.floor(y / side) * grid_x + Math.floor(x / side);
    const px = left + x * cell, py = top + y * cell;
    if (o) {
      body += rect(px + 1, py + 1, cell - 2, cell - 2, PALETTE[block % PALETTE.length]);
      if (labelled) {
        body += text(px + cell / 2, py + 19, `c[${o.index}]`, `font-size="11" text-anchor="middle" fill="${DARK}"`);
        body += text(px + cell / 2, py + 35, `(${o.tx},${o.ty})`, 'font-size="10" text-anchor="middle" fill="#4a5568"');
      }
    } else {
      idle++;
      body += rect(px + 1, py + 1, cell - 2, cell - 2, '#f7fafc', `stroke="#cbd5e0" stroke-dasharray="${labelled ? '3,3' : '2,2'}"`);
      if (labelled) body += text(px + cell / 2, py + 27, 'idle', 'font-size="10" text-anchor="middle" fill="#a0aec0"');
    }
  }
  for (let by = 0; by < grid_y; by++) for (let bx = 0; bx < grid_x; bx++)
    body += rect(left + bx * side * cell, top + by * side * cell, side * cell, side * cell, 'none', `stroke="${DARK}" stroke-width="2.5"`);
  body += rect(left, top, cols * cell, rows * cell, 'none', `stroke="${ORANGE}" stroke-width="2" stroke-dasharray="8,4"`);
  const legendX = left + W * cell + 20;
  body += text(legendX, top + 20, labelled ? 'cell: c[row*cols+col]' : 'cell: one thread', 'font-size="13" fill="#4a5568"');
  body += text(legendX, top + 40, labelled ? '(threadIdx.x, threadIdx.y)' : 'colour: its block', 'font-size="13" fill="#4a5568"');
  body += text(legendX, top + 70, 'thick: one block', `font-size="13" fill="${DARK}"`);
  body += text(legendX, top + 90, 'dashed: the matrix', `font-size="13" fill="${ORANGE}"`);
  body += text(legendX, top + 120, `${idle} of ${W * H} threads idle`, `font-size="13" fill="${DARK}" font-weight="bold"`);
  return { svg: svgDoc(legendX + 230, top + H * cell + 10, body), facts: { idle, threads: W * H, rows, cols, side } };
}

// Lab 02: for one block, which elements of A and B each phase loads into the shared tiles.
// A tile is the shared array stored at one source line; the matrix it comes from is the one that
// line loads, and a slot whose thread loaded nothing at that line holds a zero. The slot of a
// store is its element counted from the lowest the line stores to in that phase.
export function tileLoad(events, { tile, m, k, n }, { bx = 1, by = 0 } = {}) {
  const gridX = Math.ceil(n / tile);
  const block = by * gridX + bx;
  const mine = events.filter((e) => e.block === block);
  const sourceOf = new Map(); // line -> the global array it loads
  for (const e of mine) if (e.space === 'global' && e.op === 'R') sourceOf.set(e.line, e.array);
  const dims = { a: [m, k], b: [k, n] };
  const cell = Math.max(6, Math.min(24, Math.floor(360 / Math.max(m, k, n))));
  const labelled = tile <= 6, tcell = labelled ? 40 : Math.max(8, Math.floor(240 / tile));
  const rowH = Math.max(m, k, tile * tcell / cell) * cell + 60;
  let body = '';
  const facts = { tile, m, k, n, bx, by, phases: [] };
  const phases = phasesOf(mine.filter((e) => e.space === 'shared'));
  phases.forEach((phase, p) => {
    const y0 = 10 + p * rowH;
    const evs = mine.filter((e) => e.phase === phase);
    const loads = new Map(); // "line thread" -> element loaded
    for (const e of evs) if (e.space === 'global' && e.op === 'R') loads.set(`${e.line} ${e.thread}`, e.index);
    const slots = { a: new Map(), b: new Map() };
    for (const line of new Set(evs.filter((e) => e.space === 'shared' && e.op === 'W').map((e) => e.line))) {
      const array = sourceOf.get(line);
      if (!slots[array]) throw new DeckError(`tile-load: the shared store at ${line} loads no element of a or b`);
      const stores = evs.filter((e) => e.line === line && e.space === 'shared' && e.op === 'W');
      const lo = Math.min(...stores.map((e) => e.index));
      for (const e of stores) slots[array].set(e.index - lo, loads.get(`${line} ${e.thread}`) ?? null);
    }
    const loadedA = new Set([...slots.a.values()].filter((v) => v != null));
    const loadedB = new Set([...slots.b.values()].filter((v) => v != null));
    const zeros = [...slots.a.values(), ...slots.b.values()].filter((v) => v == null).length;
    facts.phases.push({ phase: p, loadedA: loadedA.size, loadedB: loadedB.size, zeros });
    body += text(10, y0 + 16, `phase ${p}`, `font-size="16" font-weight="bold" fill="${DARK}"`);
    const matrix = (x, y, rowsN, colsN, name, loaded) => {
      body += text(x, y + 12, `${name} (${rowsN} x ${colsN})`, `font-size="13" fill="${DARK}"`);
      for (let r = 0; r < rowsN; r++) for (let c = 0; c < colsN; c++) {
        const on = loaded.has(r * colsN + c);
        body += rect(x + c * cell, y + 20 + r * cell, cell - 2, cell - 2, on ? BLUE : GREY);
      }
    };
    matrix(110, y0, ...dims.a, 'A', loadedA);
    matrix(110 + k * cell + 40, y0, ...dims.b, 'B', loadedB);
    const tileBox = (x, name, map, colsN, label) => {
      body += text(x, y0 + 12, `${name}[ty][tx]`, `font-size="13" fill="${DARK}"`);
      for (let s = 0; s < tile * tile; s++) {
        const r = Math.floor(s / tile), c = s % tile, src = map.get(s);
        body += rect(x + c * tcell, y0 + 20 + r * tcell, tcell - 2, tcell - 2, src == null ? '#fed7d7' : LIGHT);
        if (labelled) body += text(x + c * tcell + (tcell - 2) / 2, y0 + 20 + r * tcell + 24, src == null ? '0' : `${label}${Math.floor(src / colsN)},${src % colsN}`, `font-size="10" text-anchor="middle" fill="${DARK}"`);
      }
    };
    const tx0 = 110 + k * cell + 40 + n * cell + 50;
    tileBox(tx0, 'a_tile', slots.a, k, 'A');
    tileBox(tx0 + tile * tcell + 30, 'b_tile', slots.b, n, 'B');
  });
  const w = 110 + k * cell + 40 + n * cell + 50 + 2 * tile * tcell + 40;
  return { svg: svgDoc(w, phases.length * rowH, body), facts };
}

// Lab 04: which elements each thread folds, for the first two blocks.
export function fold(events, { block, unroll }) {
  const cell = 44, panelW = block * cell + 60;
  let body = '';
  const blocks = [...new Set(events.map((e) => e.block))].sort((a, b) => a - b);
  blocks.forEach((b, k) => {
    const x0 = 20 + k * panelW;
    const reads = events.filter((e) => e.block === b && e.op === 'R');
    const writes = events.filter((e) => e.block === b && e.op === 'W');
    const first = Math.min(...reads.map((e) => e.index));
    body += text(x0, 22, `block ${b}: elements ${first}..${first + block * unroll - 1}`, `font-size="15" font-weight="bold" fill="${DARK}"`);
    for (let j = 0; j < unroll; j++) {
      const y = 36 + j * (cell + 6);
      for (let t = 0; t < block; t++) {
        const idx = first + j * block + t;
        const by = reads.find((e) => e.index === idx);
        body += rect(x0 + t * cell, y, cell - 3, cell - 3, by ? PALETTE[by.thread % PALETTE.length] : GREY);
        body += text(x0 + t * cell + (cell - 3) / 2, y + 18, idx, `font-size="12" text-anchor="middle" fill="${DARK}"`);
        if (by) body += text(x0 + t * cell + (cell - 3) / 2, y + 34, `t${by.thread}`, 'font-size="10" text-anchor="middle" fill="#4a5568"');
      }
    }
    const y = 36 + unroll * (cell + 6) + 20;
    body += text(x0, y - 4, 'then: data[idx] = sum', `font-size="12" fill="${GREEN}"`);
    for (const w of writes) body += rect(x0 + (w.index - first) * cell, y + 4, cell - 3, 10, GREEN);
  });
  const h = 36 + unroll * (cell + 6) + 50;
  body += text(20, h - 4, `colour = thread; each row is one data block (blockDim.x = ${block}, UNROLL = ${unroll})`, 'font-size="12" fill="#4a5568"');
  return { svg: svgDoc(20 + blocks.length * panelW, h + 6, body), facts: { block, unroll, blocks: blocks.length } };
}

// Lab 05: the six last-warp steps: who reads, who writes, and where __syncwarp separates them.
// sync, vol: the events of warp 0 of block 0 in the __syncwarp() version and the volatile one.
export function lastWarp(syncEvents, volEvents) {
  const sync = { events: syncEvents };
  // The volatile version must touch the same elements (it differs in ordering, not in indices).
  const key = (evs) => evs.map((e) => `${e.thread}:${e.op}:${e.index}`).sort().join(' ');
  if (key(syncEvents) !== key(volEvents)) throw new DeckError('last-warp-volatile and last-warp-syncwarp touch different elements: the lab 05 diagram assumes they do not');
  const phases = phasesOf(syncEvents);
  const cell = 28, left = 170;
  let body = '';
  let row = 0;
  const steps = [];
  for (const ph of phases) {
    const evs = sync.events.filter((e) => e.phase === ph);
    const writes = evs.filter((e) => e.op === 'W');
    const y = 10 + row * 40;
    if (writes.length === 0) { // a read phase: every lane reads its partner
      const reads = evs.filter((e) => e.op === 'R');
      const offset = reads[0].index - reads[0].thread;
      steps.push({ offset, readers: reads.length });
      body += text(10, y + 19, `offset ${offset}: read`, `font-size="13" fill="${DARK}"`);
      for (let l = 0; l < 32; l++) {
        const on = reads.some((e) => e.thread === l);
        body += rect(left + l * cell, y, cell - 3, 26, on ? LIGHT : '#f7fafc', 'stroke="#cbd5e0" stroke-width="0.5"');
        if (on) body += text(left + l * cell + (cell - 3) / 2, y + 17, reads.find((e) => e.thread === l).index, 'font-size="9" text-anchor="middle" fill="#2c5282"');
      }
    } else {
      body += text(10, y + 19, '__syncwarp(), write', `font-size="13" fill="${ORANGE}"`);
      for (let l = 0; l < 32; l++) {
        const on = writes.some((e) => e.thread === l);
        body += rect(left + l * cell, y, cell - 3, 26, on ? BLUE : '#f7fafc', 'stroke="#cbd5e0" stroke-width="0.5"');
        if (on) body += text(left + l * cell + (cell - 3) / 2, y + 17, l, 'font-size="9" text-anchor="middle" fill="#fff"');
      }
      steps[steps.length - 1].writers = writes.length;
    }
    row++;
  }
  body += text(left, 10 + row * 40 + 14, 'lane 0 .. 31 of warp 0; light: the element the lane reads (its partner); dark: the lane adds it into block_data[lane]', 'font-size="12" fill="#4a5568"');
  return { svg: svgDoc(left + 32 * cell + 10, 10 + row * 40 + 26, body), facts: { steps } };
}

// Lab 05: the warp's shuffle sum, one row per __shfl_down_sync: an arrow from the lane whose
// register is read to the lane that adds it; dark lanes are those whose sums reach lane 0.
export function shuffle(events) {
  const run = { events };
  const steps = phasesOf(events);
  const cell = 30, left = 150, rowH = 62, top = 24;
  const at = (l) => left + l * cell + (cell - 4) / 2;
  // Lanes whose running sum ends in lane 0's total, from the last step back to the first.
  const feeds = steps.map(() => new Set());
  let live = new Set([0]);
  for (let i = steps.length - 1; i >= 0; i--) {
    const reads = run.events.filter((e) => e.phase === steps[i] && e.array === 'shfl');
    feeds[i] = new Set(live);
    for (const e of reads) if (live.has(e.thread) && e.index !== e.thread) feeds[i].add(e.index);
    live = feeds[i];
  }
  let body = '';
  const facts = { offsets: [] };
  steps.forEach((ph, i) => {
    const reads = run.events.filter((e) => e.phase === ph && e.array === 'shfl');
    const offset = run.events.find((e) => e.phase === ph && e.array === 'offset').index;
    facts.offsets.push(offset);
    const y = top + i * rowH;
    body += text(10, y + 18, `offset ${offset}`, `font-size="14" fill="${DARK}"`);
    for (let l = 0; l < 32; l++) body += rect(left + l * cell, y, cell - 4, 24, feeds[i].has(l) ? BLUE : '#f7fafc', 'stroke="#a0aec0" stroke-width="0.6"');
    for (const e of reads) {
      if (e.index === e.thread) continue; // past the warp's end: the lane keeps its own value
      const strong = feeds[i].has(e.thread) && (i + 1 >= steps.length || feeds[i + 1].has(e.thread));
      body += `<line x1="${at(e.index)}" y1="${y + 24}" x2="${at(e.thread)}" y2="${y + rowH - 4}" stroke="${strong ? ORANGE : '#a0aec0'}" stroke-width="${strong ? 2 : 0.8}"/>`;
    }
  });
  const y = top + steps.length * rowH;
  for (let l = 0; l < 32; l++) body += rect(left + l * cell, y, cell - 4, 24, l === 0 ? ORANGE : '#f7fafc', 'stroke="#a0aec0" stroke-width="0.6"');
  body += text(10, y + 18, 'lane 0: total', `font-size="14" fill="${ORANGE}"`);
  for (const l of [0, 8, 16, 24, 31]) body += text(at(l), top - 8, `lane ${l}`, 'font-size="11" text-anchor="middle" fill="#4a5568"');
  body += text(left, y + 46, 'a line: the lower lane adds the register of the upper one (__shfl_down_sync); blue: lanes whose sums reach lane 0', 'font-size="12" fill="#4a5568"');
  return { svg: svgDoc(left + 32 * cell + 10, y + 56, body), facts };
}

// Lab 06: one grid per halving step, each launched into the tail of the one before.
export function recursive(events, { n, block }) {
  const run = { events };
  const grids = [...new Set(run.events.map((e) => e.grid))].sort((a, b) => a - b);
  const cell = Math.max(6, Math.min(24, Math.floor(1100 / n))), left = 230, rowH = 46;
  let body = '';
  const facts = { n, block, grids: grids.length, launches: [] };
  grids.forEach((g, r) => {
    const evs = run.events.filter((e) => e.grid === g);
    const writes = evs.filter((e) => e.op === 'W' && e.array === 'data');
    const sums = evs.filter((e) => e.op === 'W' && e.array === 'block_sums');
    const threads = Math.max(...evs.map((e) => e.thread)) + 1;
    const stride = writes.length ? (evs.find((e) => e.op === 'R' && e.array === 'data' && e.thread === writes[0].thread && e.index !== writes[0].index)?.index ?? 0) - writes[0].index : 0;
    facts.launches.push({ stride, adds: writes.length });
    const y = 10 + r * rowH;
    body += text(10, y + 17, `${r === 0 ? 'host launch' : 'tail launch'} ${r + 1}: stride ${stride}`, `font-size="13" fill="${r === 0 ? DARK : ORANGE}" font-weight="bold"`);
    body += text(10, y + 33, `${writes.length} adds${sums.length ? `, ${sums.length} block sums written` : ''}`, 'font-size="11" fill="#4a5568"');
    const dst = new Set(writes.map((e) => e.index));
    const src = new Set(evs.filter((e) => e.op === 'R' && e.array === 'data' && !dst.has(e.index)).map((e) => e.index));
    for (let i = 0; i < n; i++) {
      const x = left + i * cell + Math.floor(i / block) * 10;
      body += rect(x, y, cell - 2, 26, dst.has(i) ? BLUE : src.has(i) ? LIGHT : '#f7fafc', 'stroke="#cbd5e0" stroke-width="0.5"');
      if (i % block === 0) body += text(x, y - 1, '', '');
    }
    void threads;
  });
  const labelsY = 10 + grids.length * rowH;
  for (let b = 0; b * block < n; b++) body += text(left + b * block * cell + b * 10, labelsY + 8, `block ${b}: elements ${b * block}..${Math.min(n, (b + 1) * block) - 1}`, 'font-size="12" fill="#4a5568"');
  body += text(10, labelsY + 28, 'dark: element tid (written), light: element tid + stride (read); each row is a separate grid', 'font-size="12" fill="#4a5568"');
  const w = left + n * cell + Math.ceil(n / block) * 10 + 10;
  return { svg: svgDoc(w, labelsY + 36, body), facts };
}
