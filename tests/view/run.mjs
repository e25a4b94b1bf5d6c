#!/usr/bin/env node
// The HTML report's tests (make test-view, part of make test): one line per check, then
// "N passed, N failed"; the exit status is the number of failures.
//
// Each case is a lab folder made here from solutions/ (a copy, edited by one replacement), checked
// with `make check TREE=... LAB=NN VIEW=1` on the emulator; the checks read the numbers the
// pictures carry (data-* attributes, the same numbers they draw):
//  1. coalesced and strided access: the drawn sectors equal the emulator's counters; the coalesced
//     kernel's equal the model's and show 4 sectors a request, the strided one's 32
//  2. tiled matmul with the tile index swapped in shared memory: the bank picture shows an 8-way
//     (tile 16) and 32-way (tile 32) conflict, the drawn conflicts equal the emulator's counter
//  3. the neighbored reduction: half the lanes of every warp idle at step 1, ..., whole warps idle later
//  4. a race, an out-of-bounds access, an endless loop and a failed build each still give a report
//     that says so (tag, lines, warps)
//  5. a student's page (lab 02 with a wrong index into B, lab 05's legacy volatile warp): the
//     summary comes first, failing kernels open and the rest folded; every picture shows its line
//     of the student's file; the legacy warp's warnings are one note with their count; captions
//     say "coalesced" exactly where the drawn instruction touches the fewest sectors it can; no
//     percentage over 100
//  6. in headless Chromium: no console error or failed request; every picture's screenshot is not
//     blank; no two labels of a picture overlap; the failing lab 02 page is about two screens
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inkedShares, launchChromium, watchProblems } from '../browser.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const build = path.resolve(root, process.env.BUILD || 'build');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'view-test-'));

let passed = 0, failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++; else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${!ok && detail ? `: ${detail}` : ''}`);
}

// A lab folder from solutions/ with `from` replaced by `to` (the test fails loudly if the line moved).
function makeTree(name, lab, from, to) {
  const dir = path.join(tmp, name);
  fs.cpSync(path.join(root, 'solutions', lab), path.join(dir, lab), { recursive: true });
  if (from) {
    const file = path.join(dir, lab, fs.readdirSync(path.join(dir, lab)).find((f) => f.endsWith('.cu')));
    const src = fs.readFileSync(file, 'utf8');
    if (!src.includes(from)) throw new Error(`${name}: "${from}" is no longer in solutions/${lab}: update the test`);
    fs.writeFileSync(file, src.split(from).join(to));
  }
  return dir;
}

// make check TREE=dir LAB=NN VIEW=1 on the emulator; returns its output and the report's HTML (kept).
function viewCheck(name, lab, from, to, extra = []) {
  const tree = makeTree(name, lab, from, to);
  const report = path.join(build, 'report', lab.slice(0, 2), 'index.html');
  fs.rmSync(report, { force: true });
  const r = spawnSync('make', ['--no-print-directory', 'check', `TREE=${tree}`, `LAB=${lab.slice(0, 2)}`, 'VIEW=1', 'BACKEND=emu', ...extra],
    { cwd: root, encoding: 'utf8', env: { ...process.env, BUILD: build } });
  const out = r.stdout + r.stderr;
  const html = fs.existsSync(report) ? fs.readFileSync(report, 'utf8') : '';
  const kept = path.join(tmp, `${name}.html`);
  if (html) fs.writeFileSync(kept, html);
  return { status: r.status, out, html, file: kept, printed: out.includes(`report: ${path.relative(root, report)}`) || out.includes(`report: ${report}`) };
}

const attrs = (tag) => Object.fromEntries([...tag.matchAll(/([\w-]+)='([^']*)'/g)].map((m) => [m[1], m[2]]));
function section(html, kernel) {
  const start = html.indexOf(`<section class='kernel' id='k-${kernel}'`);
  return start < 0 ? '' : html.slice(start, html.indexOf('</section>', start));
}
const figures = (html, kind) => [...html.matchAll(/<figure class='pic[^']*'[^>]*>/g)].map((m) => attrs(m[0])).filter((a) => a['data-kind'] === kind);
function counter(html, name) { // {drawn, emu, model} of the totals table
  const m = new RegExp(`<tr data-counter='${name}'>(.*?)</tr>`).exec(html);
  if (!m) return {};
  const cell = (src) => { const c = new RegExp(`data-src='${src}'[^>]*>([^<]*)<`).exec(m[1]); return c ? Number(c[1]) : NaN; };
  return { drawn: cell('drawn'), emu: cell('emu'), model: cell('model') };
}
const kept = [];

try {
  // ---- 1. coalesced and strided ----
  const coal = viewCheck('coalesced', '00-thread-indexing');
  check('make check VIEW=1 writes build/report/00/index.html and prints its path', coal.html && coal.printed, coal.out.slice(-600));
  kept.push(coal.file);
  {
    const s = section(coal.html, 'sine');
    const load = figures(s, 'global').find((f) => f['data-op'] === 'load');
    const sec = counter(s, 'gld_sectors'), inst = counter(s, 'gld_inst');
    check('coalesced: a warp of the sine load touches 4 sectors', load && Number(load['data-rep-sectors']) === 4 && Number(load['data-rep-lanes']) === 32, JSON.stringify(load));
    check('coalesced: drawn load sectors = emulator counter = model', sec.drawn > 0 && sec.drawn === sec.emu && sec.drawn === sec.model && inst.drawn === inst.model, JSON.stringify({ sec, inst }));
    check('coalesced: the site total drawn equals the table', load && Number(load['data-sectors']) === sec.drawn, `${load && load['data-sectors']} vs ${sec.drawn}`);
  }
  const strided = viewCheck('strided', '00-thread-indexing', 'unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;', 'unsigned int i = threadIdx.x * gridDim.x + blockIdx.x;');
  kept.push(strided.file);
  {
    const s = section(strided.html, 'sine');
    const load = figures(s, 'global').find((f) => f['data-op'] === 'load');
    const sec = counter(s, 'gld_sectors'), spr = counter(s, 'sectors_per_request');
    check('strided: a warp of the sine load touches 32 sectors', load && Number(load['data-rep-sectors']) === 32, JSON.stringify(load));
    check('strided: drawn sectors = emulator counter, 8x the model', sec.drawn === sec.emu && sec.drawn === 8 * sec.model, JSON.stringify(sec));
    check('strided: sectors per request drawn = emulator\'s', spr.drawn === spr.emu && spr.drawn > 30, JSON.stringify(spr));
    check('strided: the caption says what to look at', /touch 32 sectors, 8\.0 times the 4 a coalesced access needs/.test(s));
  }

  // ---- 2. bank conflicts ----
  // B read by the wrong index (B's transpose): tiled16 and tiled32 fail, naive passes; the shared
  // tiles are used as before. The same page serves the checks of 5.
  const wrongIndex = viewCheck('wrong-index', '02-matmul-tiled', 'b[b_row * n + col]', 'b[col * n + b_row]');
  kept.push(wrongIndex.file);
  const worstOf = (html, kernel) => Math.max(...figures(section(html, kernel), 'shared').map((f) => Number(f['data-worst'])));
  check('tiled matmul: no bank conflict drawn', worstOf(wrongIndex.html, 'tiled16') === 1 && worstOf(wrongIndex.html, 'tiled32') === 1);
  // the read follows the layout, or the product is wrong: b_tile[i][tx] becomes b_tile[tx][i]
  const sw = (() => {
    const tree = makeTree('swapped-both', '02-matmul-tiled', 'b_tile[ty][tx] =', 'b_tile[tx][ty] =');
    const file = path.join(tree, '02-matmul-tiled', 'matmul_tiled.cu');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('b_tile[i][tx]', 'b_tile[tx][i]'));
    return tree;
  })();
  {
    const report = path.join(build, 'report', '02', 'index.html');
    const r = spawnSync('make', ['--no-print-directory', 'check', `TREE=${sw}`, 'LAB=02', 'VIEW=1', 'BACKEND=emu'], { cwd: root, encoding: 'utf8', env: { ...process.env, BUILD: build } });
    const html = fs.existsSync(report) ? fs.readFileSync(report, 'utf8') : '';
    fs.writeFileSync(path.join(tmp, 'swapped.html'), html);
    kept.push(path.join(tmp, 'swapped.html'));
    check('swapped tile index: the kernels still pass', r.status === 0, (r.stdout + r.stderr).slice(-500));
    const w16 = worstOf(html, 'tiled16'), w32 = worstOf(html, 'tiled32');
    check('swapped tile index: the bank picture shows 8-way (tile 16) and 32-way (tile 32) conflicts', w16 === 8 && w32 === 32, `${w16}, ${w32}`);
    const c = counter(section(html, 'tiled32'), 'shared_bank_conflicts');
    check('swapped tile index: drawn conflicts = emulator counter', c.drawn > 0 && c.drawn === c.emu, JSON.stringify(c));
    check('swapped tile index: the caption names the conflict', /a 32-way bank conflict/.test(section(html, 'tiled32')));
  }

  // ---- 3. the neighbored reduction ----
  const red = viewCheck('reduce', '03-reduce-divergence');
  kept.push(red.file);
  {
    const rows = [...section(red.html, 'neighbored').matchAll(/<g class='row'[^>]*>/g)].map((m) => attrs(m[0]));
    const step = (k) => rows.filter((r) => r['data-step'] === String(k) && r['data-order'] === '0')[0];
    const masks = (k) => step(k)?.['data-masks'];
    check('neighbored: step 1, half the lanes of every warp idle (0x55555555)', masks(1) === '55555555,55555555,55555555,55555555' && step(1)['data-active'] === '64', masks(1));
    check('neighbored: step 2, a quarter of the lanes work (0x11111111)', masks(2) === '11111111,11111111,11111111,11111111', masks(2));
    check('neighbored: step 6, lane 0 of warps 0 and 2 only; warps 1 and 3 issue nothing', masks(6) === '00000001,-00000000,00000001,-00000000', masks(6));
    const inter = [...section(red.html, 'interleaved').matchAll(/<g class='row'[^>]*>/g)].map((m) => attrs(m[0]));
    const i1 = inter.find((r) => r['data-step'] === '1');
    const i2 = inter.find((r) => r['data-step'] === '2');
    check('interleaved: whole warps retire (step 1: warps 0-1 full, 2-3 nothing; step 2: warp 0 only)',
      i1?.['data-masks'] === 'ffffffff,ffffffff,-00000000,-00000000' && i2?.['data-masks'] === 'ffffffff,-00000000,-00000000,-00000000', `${i1?.['data-masks']} / ${i2?.['data-masks']}`);
  }

  // ---- 4. failures still give a report ----
  const race = viewCheck('race', '03-reduce-divergence', '            block_data[tid] += block_data[tid + stride];\n        __syncthreads(); /* every add of this step lands before the next step reads */', '            block_data[tid] += block_data[tid + stride];');
  kept.push(race.file);
  {
    const s = section(race.html, 'neighbored');
    const d = figures(s, 'diag')[0];
    check('race: the report names [race] with both lines and marks their pictures', /data-tag='\[race\]'/.test(s) && d && /reduce_divergence\.cu:\d+/.test(d['data-line']) && /reduce_divergence\.cu:\d+/.test(d['data-line2']) && /class='pic hot'/.test(s), JSON.stringify(d));
    check('race: the two warps are named', /warp 1, lane \d+ and thread \(\d+,0,0\), warp 0/.test(s) || /warp 0, lane \d+ and thread \(\d+,0,0\), warp 1/.test(s));
  }
  const oob = viewCheck('oob', '00-thread-indexing', 'if (i < n) /* the last block may have more threads than elements left */\n', '');
  kept.push(oob.file);
  check('out-of-bounds: the report shows [out-of-bounds] with its line and address', /data-tag='\[out-of-bounds\]'/.test(section(oob.html, 'sine')) && /address 0x[0-9a-f]+ \(sector/.test(section(oob.html, 'sine')), oob.out.slice(-400));
  const loop = viewCheck('endless', '00-thread-indexing', 'if (i < n) /* the last block may have more threads than elements left */', 'while (i < n)', ['TIMEOUT=2']);
  check('endless loop: the report says the kernel ran past its time limit', loop.html && /endless-loop/.test(section(loop.html, 'sine')), loop.out.slice(-400));
  const broken = viewCheck('nobuild', '03-reduce-divergence', 'unsigned int tid = threadIdx.x;', 'unsigned int tid = threadIdx.x');
  check('failed build: make fails, the report says so with the compiler\'s words', broken.status !== 0 && /data-what='build-failed'/.test(broken.html) && /error:/.test(broken.html), broken.out.slice(-400));

  // ---- 5. a student's page ----
  {
    const html = wrongIndex.html;
    const summaryAt = html.indexOf("data-what='summary'"), firstFold = html.indexOf('<details');
    const rows = [...html.matchAll(/<tr data-kernel='([^']*)' data-correct='(\d)'>(.*?)<\/tr>/g)].map((m) => ({ kernel: m[1], correct: m[2], text: m[3] }));
    check('wrong index: the summary (every kernel, passed or failed) comes before the first folded section',
      summaryAt > 0 && firstFold > summaryAt && rows.map((r) => `${r.kernel}:${r.correct}`).join(' ') === 'naive:1 tiled16:0 tiled32:0', `${summaryAt} ${firstFold} ${JSON.stringify(rows.map((r) => r.kernel + r.correct))}`);
    check('wrong index: the summary says why each kernel failed (verdict and message)',
      rows.filter((r) => r.correct === '0').every((r) => /<b>out-of-bounds<\/b>: .*matmul_tiled\.cu:75/.test(r.text)), rows.map((r) => r.text.slice(0, 120)).join(' | '));
    const opened = (k) => new RegExp(`id='k-${k}'[^>]*><details( open)?>`).exec(html)?.[1] === ' open';
    check('wrong index: the failing kernels are open, the passing one folded', !opened('naive') && opened('tiled16') && opened('tiled32'));
    const load75 = (k) => figures(section(html, k), 'global').find((f) => /:75$/.test(f['data-line']) && f['data-op'] === 'load');
    const l16 = load75('tiled16'), l32 = load75('tiled32');
    check('wrong index: the line 75 load of B is drawn 16 (tile 16) and 32 (tile 32) sectors a warp, 4 at the fewest',
      l16?.['data-rep-sectors'] === '16' && l32?.['data-rep-sectors'] === '32' && l16['data-rep-ideal'] === '4' && l32['data-rep-ideal'] === '4', JSON.stringify([l16, l32]));
    check('wrong index: the line 75 load stands out (shown, not folded with the other accesses)',
      ['tiled16', 'tiled32'].every((k) => { const s = section(html, k), at = s.indexOf("data-line='02-matmul-tiled/matmul_tiled.cu:75' data-op='load'"), fold = s.indexOf("data-what='other-sites'"); return at > 0 && (fold < 0 || at < fold); }));
  }
  const legacy = viewCheck('legacy', '05-reduce-warp-unrolling', null, null, ['VARIANT=unroll_warps8']);
  kept.push(legacy.file);
  {
    const s = section(legacy.html, 'unroll_warps8');
    const boxes = [...s.matchAll(/<div class='diag warn'[^>]*>/g)].map((m) => attrs(m[0]));
    check('legacy volatile warp: its [warp-sync] warnings are one note, with their count and lines',
      boxes.length === 1 && boxes[0]['data-tag'] === '[warp-sync]' && Number(boxes[0]['data-count']) >= 16 && Number(boxes[0]['data-pairs']) >= 2 &&
      new RegExp(`${boxes[0]['data-count']} times in the drawn run.*line 99 with line 97`).test(s), JSON.stringify(boxes));
    check('legacy volatile warp: the known hazard is said once, in that note, and one picture of it is drawn',
      (s.match(/known hazard:/g) || []).length === 1 && /<div class='diag warn'[^>]*><p class='hazard'/.test(s) && figures(s, 'diag').length === 1,
      `${(s.match(/known hazard:/g) || []).length} hazards, ${figures(s, 'diag').length} pictures`);
  }

  // every picture of a line of the student's file shows that line (escaped) and its neighbours
  const unescape = (t) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
  const sourceOf = { 'wrong-index': path.join(tmp, 'wrong-index', '02-matmul-tiled', 'matmul_tiled.cu'), legacy: path.join(tmp, 'legacy', '05-reduce-warp-unrolling', 'reduce_warp_unrolling.cu'), race: path.join(tmp, 'race', '03-reduce-divergence', 'reduce_divergence.cu') };
  for (const [name, file] of Object.entries(sourceOf)) {
    const lines = fs.readFileSync(file, 'utf8').split('\n');
    const html = fs.readFileSync(path.join(tmp, `${name}.html`), 'utf8');
    const pics = [...html.matchAll(/<figure class='pic[^']*' data-kind='(?:global|shared)' data-line='[^']*:(\d+)'.*?<\/figure>/gs)];
    const wrong = pics.filter((m) => {
      const hit = /<span class='l hit'><span class='ln'>\s*(\d+)\s*<\/span>(.*?)<\/span>/.exec(m[0]);
      const n = Number(m[1]);
      return !hit || Number(hit[1]) !== n || unescape(hit[2]) !== lines[n - 1] || !m[0].includes(`<span class='ln'>${String(n - 1).padStart(4)}  </span>`);
    });
    check(`${name}: each of its ${pics.length} access pictures shows its source line, numbered, with the one above`, pics.length >= 5 && wrong.length === 0, wrong.slice(0, 2).map((m) => m[0].slice(0, 300)).join(' | '));
  }
  {
    // the race's box shows the lines its picture names (one line here: the load and the store of a += b)
    const s = section(race.html, 'neighbored');
    const box = /<div class='diag' data-tag='\[race\]'>.*?<\/div>/s.exec(s)?.[0] || '';
    const pic = figures(s, 'diag')[0] || {};
    const named = new Set([pic['data-line'], pic['data-line2']].filter(Boolean).map((l) => Number(l.split(':').pop())));
    const lines = fs.readFileSync(sourceOf.race, 'utf8').split('\n');
    const hits = [...box.matchAll(/<span class='l hit'><span class='ln'>\s*(\d+)\s*<\/span>(.*?)<\/span>/g)];
    check('race: the diagnosis shows the lines it names from the student\'s file', named.size > 0 && hits.length === named.size &&
      hits.every((h) => named.has(Number(h[1])) && unescape(h[2]) === lines[Number(h[1]) - 1]), `${[...named]} vs ${hits.map((h) => h[1])}`);
  }

  // captions computed from the instruction drawn
  {
    const bad = [];
    let n = 0;
    for (const file of kept) {
      const html = fs.readFileSync(file, 'utf8');
      for (const m of html.matchAll(/<figure class='pic[^']*' data-kind='global'[^>]*>.*?<figcaption[^>]*>(.*?)<\/figcaption>/gs)) {
        const a = attrs(/<figure[^>]*>/.exec(m[0])[0]), cap = m[1].replace(/<[^>]+>/g, '');
        const sectors = Number(a['data-rep-sectors']), ideal = Number(a['data-rep-ideal']), runs = Number(a['data-rep-runs']);
        n++;
        const ok = sectors > ideal
          ? cap.startsWith('Not coalesced') && cap.includes(`touch ${sectors} sectors`) && cap.includes(`the ${ideal} a coalesced access needs`)
          : !/Not coalesced/.test(cap) && /(Coalesced|Lanes share words)/.test(cap) && cap.includes(`${sectors} ${runs === 1 && sectors > 1 ? 'neighbouring ' : ''}sector`) && (runs > 1) === /separate runs/.test(cap);
        if (!ok) bad.push(`${path.basename(file)} line ${a['data-line']}: ${sectors} sectors (${ideal} at the fewest, ${runs} runs): "${cap}"`);
      }
    }
    check(`the captions of ${n} global pictures match the drawn sectors ("coalesced" only at the fewest)`, n > 20 && bad.length === 0, bad.slice(0, 3).join(' | '));
    const over = kept.flatMap((file) => [...fs.readFileSync(file, 'utf8').replace(/<style>.*?<\/style>/s, '').matchAll(/(\d+(?:\.\d+)?)%/g)].filter((m) => Number(m[1]) > 100).map((m) => `${path.basename(file)}: ${m[0]}`));
    check('no percentage over 100 in the reports', over.length === 0, over.slice(0, 5).join(', '));
  }

  // ---- 5. self-contained, and in the browser ----
  const all = kept.map((f) => fs.readFileSync(f, 'utf8'));
  check('the reports are self-contained (no script, no external src/href)', all.every((h) => !/<script|\b(?:src|href)=['"]https?:/.test(h)));
  const browser = await launchChromium(root);
  try {
    const page = await browser.newPage();
    await page.setViewport({ width: 1150, height: 900 });
    const problems = watchProblems(page);
    let pictures = 0;
    const blank = [];
    await page.goto(`file://${wrongIndex.file}`, { waitUntil: 'load' });
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    check(`the failing lab 02 page, as it opens, is about two screens (${height} px; 900 px a screen)`, height > 900 && height < 2700);
    const overlapping = [];
    let labels = 0;
    for (const file of kept) {
      await page.goto(`file://${file}`, { waitUntil: 'load' });
      await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
      // every picture's text boxes, less half a pixel of slack: none may meet another or leave its picture
      const clash = await page.evaluate(() => {
        const out = [];
        let count = 0;
        for (const svg of document.querySelectorAll('figure svg')) {
          const frame = svg.getBoundingClientRect();
          const boxes = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim()).map((t) => ({ s: t.textContent.trim(), r: t.getBoundingClientRect() }));
          count += boxes.length;
          const slack = 0.5;
          for (const b of boxes)
            if (b.r.left < frame.left - slack || b.r.right > frame.right + slack || b.r.top < frame.top - slack || b.r.bottom > frame.bottom + slack) out.push(`"${b.s}" leaves its picture`);
          for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
            const p = boxes[i].r, q = boxes[j].r;
            if (p.left + slack < q.right - slack && q.left + slack < p.right - slack && p.top + slack < q.bottom - slack && q.top + slack < p.bottom - slack) out.push(`"${boxes[i].s}" and "${boxes[j].s}"`);
          }
        }
        return { out, count };
      });
      labels += clash.count;
      overlapping.push(...clash.out.map((c) => `${path.basename(file)}: ${c}`));
      // every picture's part of one screenshot of the whole page (one capture, not one a picture)
      const rects = await page.evaluate(() => [...document.querySelectorAll('figure.pic')].map((f) => {
        const r = f.getBoundingClientRect();
        return { x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height };
      }));
      const shares = rects.length ? await inkedShares(page, await page.screenshot({ encoding: 'base64', fullPage: true }), rects) : [];
      shares.forEach((inked, i) => {
        pictures++;
        if (inked < 0.02) blank.push(`${path.basename(file)} picture ${i} (${(100 * inked).toFixed(2)}% inked)`);
      });
    }
    check(`${pictures} pictures in ${kept.length} reports screenshotted in Chromium, none blank`, pictures > 20 && blank.length === 0, blank.slice(0, 5).join(', '));
    check(`no two of the pictures' ${labels} labels overlap, none leaves its picture (boxes measured in Chromium)`, labels > 500 && overlapping.length === 0, overlapping.slice(0, 5).join('; '));
    check('no console error, page error or failed request', problems.length === 0, problems.slice(0, 5).join('; '));
  } finally {
    await browser.close();
  }
} catch (e) {
  check('the test ran to its end', false, e.stack || String(e));
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed);
