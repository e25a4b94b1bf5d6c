// Charts drawn by gnuplot (SVG) from the results JSON and from checker/models/matmul.c's seed model.
// The data go to gnuplot inline ($data << EOD), so what is plotted is exactly what was read.
import { execFileSync } from 'node:child_process';
import { DeckError } from './results.mjs';

const TERMINAL = (w, h) => `set terminal svg size ${w},${h} dynamic enhanced font 'DejaVu Sans,15' background rgb 'white'`;

function gnuplot(script) {
  try {
    return execFileSync('gnuplot', [], { input: script, stdio: ['pipe', 'pipe', 'pipe'] }).toString();
  } catch (e) {
    if (e.code === 'ENOENT') throw new DeckError("gnuplot is not installed: run 'tools/setup plot' (as root) or install gnuplot-nox");
    throw new DeckError(`gnuplot failed: ${e.stderr}\n--- script ---\n${script}`);
  }
}

// Gnuplot's enhanced text treats _ as a subscript: show names as written.
const label = (s) => `"${String(s).replace(/_/g, '\\\\_')}"`;
const dataBlock = (name, rows) => `$${name} << EOD\n${rows.map((r) => r.join(' ')).join('\n')}\nEOD\n`;

// Rows of one size and task side by side; groups apart, each under a heading that says its
// size, with a dashed line between groups, so no bar stands next to one of another size.
function grouped(rows) {
  const xs = [], groups = [];
  let x = 0;
  rows.forEach((r, i) => {
    if (i > 0 && r.group !== rows[i - 1].group) x += 1;
    if (!groups.length || groups.at(-1).name !== r.group) groups.push({ name: r.group, from: x, to: x });
    groups.at(-1).to = x;
    xs.push(x++);
  });
  const separators = groups.slice(1).map((g) => `set arrow from ${g.from - 1},graph 0 to ${g.from - 1},graph 1 nohead dt 3 lc rgb '#888888'`).join('\n');
  // Left-aligned at the group's first bar, on one of three rows in turn: a narrow group's heading
  // runs over the next group, never into the next heading.
  const headings = groups.map((g, i) => `set label ${10 + i} ${label(g.name)} at ${g.from - 0.4},graph ${0.965 - 0.065 * (i % 3)} left font ',12' tc rgb '#333333'`).join('\n');
  return { xs, last: x - 1, setup: `${separators}\n${headings}` };
}

// Bars of GB/s per reduction kernel, in teaching order, grouped by size, with the device's
// DRAM peak as a line.
export function reductionLadder(rows, peakGbps) {
  // rows: [{label, gbps, group}]
  const g = grouped(rows);
  const data = rows.map((r, i) => [g.xs[i], r.gbps, label(r.label)]);
  return gnuplot(`${TERMINAL(1200, 500)}
${dataBlock('data', data)}
set style fill solid 0.85 border -1
set boxwidth 0.7
set ylabel 'GB/s (compulsory bytes / kernel time)'
set yrange [0:${Math.ceil(peakGbps * 1.4)}]
set xrange [-0.6:${g.last + 0.6}]
set xtics rotate by -40 font ',12' nomirror
set ytics nomirror
set grid ytics lc rgb '#dddddd'
${g.setup}
set arrow from -0.6,${peakGbps} to ${g.last + 0.6},${peakGbps} nohead lw 2 lc rgb '#c53030' dt 2
set label 1 sprintf('DRAM peak %.0f GB/s', ${peakGbps}) at -0.4,${peakGbps * 1.05} left tc rgb '#c53030' font ',12'
plot $data using 1:2:xtic(3) with boxes lc rgb '#2b6cb0' notitle, \\
     $data using 1:2:(sprintf('%.0f', $2)) with labels rotate by 90 left offset 0,0.5 font ',10' notitle
`);
}

// Bars of GFLOP/s for the matmul kernels, grouped by size.
export function matmulLadder(rows, peakGflops) {
  const g = grouped(rows);
  const data = rows.map((r, i) => [g.xs[i], r.gflops, label(r.label), r.pct]);
  return gnuplot(`${TERMINAL(1200, 450)}
${dataBlock('data', data)}
set style fill solid 0.85 border -1
set boxwidth 0.6
set ylabel 'GFLOP/s (2 m n k / kernel time)'
set yrange [0:*]
set offsets 0,0,graph 0.45,0
set xrange [-0.6:${g.last + 0.6}]
set xtics rotate by -30 nomirror font ',12'
set ytics nomirror
set grid ytics lc rgb '#dddddd'
${g.setup}
set title sprintf('FP32 peak of the device: %.0f GFLOP/s', ${peakGflops}) font ',13'
plot $data using 1:2:xtic(3) with boxes lc rgb '#2f855a' notitle, \\
     $data using 1:2:(sprintf('%.0f', $2)) with labels offset 0,1.6 font ',10' notitle, \\
     $data using 1:2:(sprintf('%.1f%%', $4)) with labels offset 0,0.6 font ',10' tc rgb '#555555' notitle
`);
}

// Sectors per kernel, model vs measured of the same kernel at the same size (log scale: they
// span four orders of magnitude), grouped by size.
export function traffic(rows, haveMeasured) {
  // rows: [{label, model, measured|null, group}]
  const g = grouped(rows);
  const data = rows.map((r, i) => [g.xs[i], r.model, r.measured ?? 'NaN', label(r.label)]);
  const measuredPlot = haveMeasured
    ? `, $data using ($1+0.2):3 with boxes lc rgb '#dd6b20' title 'measured (Nsight Compute)'`
    : '';
  return gnuplot(`${TERMINAL(1200, 500)}
${dataBlock('data', data)}
set style fill solid 0.85 border -1
set boxwidth 0.38
set logscale y
set yrange [*:*]
set offsets 0,0,graph 0.45,0
set ylabel '32-byte sectors (loads + stores)'
set xrange [-0.6:${g.last + 0.6}]
set xtics rotate by -40 font ',11' nomirror
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set key at graph 0.99,graph 0.8 right top opaque box
${g.setup}
plot $data using ($1-0.2):2:xtic(4) with boxes lc rgb '#2b6cb0' title 'model (checker/models/)'${measuredPlot}
`);
}

// Lab 07: kernel time, whole trip and the CPU loop per kernel (log scale).
export function floatTiming(rows) {
  const data = rows.map((r, i) => [i, r.kernel, r.e2e, r.cpu, label(r.label)]);
  const top = 10 ** Math.ceil(Math.log10(Math.max(...rows.map((r) => Math.max(r.e2e ?? 0, r.cpu ?? 0)))) + 1);
  return gnuplot(`${TERMINAL(1000, 400)}
${dataBlock('data', data)}
set style fill solid 0.85 border -1
set boxwidth 0.26
set logscale y
set yrange [0.01:${top}]
set ylabel 'milliseconds (log scale)'
set xrange [-0.6:${rows.length - 0.4}]
set xtics nomirror font ',13'
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set key top center horizontal font ',14'
plot $data using ($1-0.28):2:xtic(5) with boxes lc rgb '#2b6cb0' title 'kernel', \\
     $data using ($1-0.28):2:(sprintf('%.3f', $2)) with labels offset 0,0.7 font ',11' notitle, \\
     $data using 1:3 with boxes lc rgb '#dd6b20' title 'whole trip: copy in, kernel, copy out, host sum', \\
     $data using 1:3:(sprintf('%.1f', $3)) with labels offset 0,0.7 font ',11' notitle, \\
     $data using ($1+0.28):4 with boxes lc rgb '#718096' title 'CPU loop (double)', \\
     $data using ($1+0.28):4:(sprintf('%.1f', $4)) with labels offset 0,0.7 font ',11' notitle
`);
}

// The seed's latency model: cycles per element of C against N, naive and tiled.
export function seedCost(curve) {
  const data = curve.map((c) => [c.n, c.naive, c.tiled16, c.tiled32]);
  return gnuplot(`${TERMINAL(820, 400)}
${dataBlock('data', data)}
set logscale xy
set xlabel 'N (square matrices)'
set ylabel 'cycles per element of C'
set grid lc rgb '#dddddd'
set key top left
set format y '10^{%L}'
plot $data using 1:2 with linespoints lw 2 pt 7 lc rgb '#c53030' title 'naive', \\
     $data using 1:3 with linespoints lw 2 pt 5 lc rgb '#2b6cb0' title 'tiled, T = 16', \\
     $data using 1:4 with linespoints lw 2 pt 9 lc rgb '#2f855a' title 'tiled, T = 32'
`);
}
