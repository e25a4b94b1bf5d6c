// Charts drawn by gnuplot (SVG) from the results JSON and from checker/model.c's seed model.
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

// Bars of GB/s per reduction kernel, in teaching order, with the device's DRAM peak as a line.
export function reductionLadder(rows, peakGbps) {
  // rows: [{label, gbps}]
  const data = rows.map((r, i) => [i, r.gbps, label(r.label)]);
  return gnuplot(`${TERMINAL(1150, 470)}
${dataBlock('data', data)}
set style fill solid 0.85 border -1
set boxwidth 0.7
set ylabel 'GB/s (compulsory bytes / kernel time)'
set yrange [0:${Math.ceil(peakGbps * 1.12)}]
set xrange [-0.6:${rows.length - 0.4}]
set xtics rotate by -35 font ',13' nomirror
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set key top left
set arrow from -0.6,${peakGbps} to ${rows.length - 0.4},${peakGbps} nohead lw 2 lc rgb '#c53030' dt 2
set label 1 sprintf('DRAM peak %.0f GB/s', ${peakGbps}) at ${rows.length - 0.5},${peakGbps * 1.05} right tc rgb '#c53030'
plot $data using 1:2:xtic(3) with boxes lc rgb '#2b6cb0' notitle, \\
     $data using 1:2:(sprintf('%.0f', $2)) with labels offset 0,0.7 font ',12' notitle
`);
}

// Bars of GFLOP/s for the matmul kernels.
export function matmulLadder(rows, peakGflops) {
  const data = rows.map((r, i) => [i, r.gflops, label(r.label), r.pct]);
  return gnuplot(`${TERMINAL(900, 420)}
${dataBlock('data', data)}
set style fill solid 0.85 border -1
set boxwidth 0.6
set ylabel 'GFLOP/s (2 m n k / kernel time)'
set yrange [0:*]
set offsets 0,0,graph 0.15,0
set xrange [-0.6:${rows.length - 0.4}]
set xtics nomirror font ',13'
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set title sprintf('FP32 peak of the device: %.0f GFLOP/s (off this scale)', ${peakGflops}) font ',13'
plot $data using 1:2:xtic(3) with boxes lc rgb '#2f855a' notitle, \\
     $data using 1:2:(sprintf('%.0f (%.1f%% of peak)', $2, $4)) with labels offset 0,0.8 font ',12' notitle
`);
}

// Sectors per kernel, model vs measured (log scale: they span four orders of magnitude).
export function traffic(rows, haveMeasured) {
  // rows: [{label, model, measured|null}]
  const data = rows.map((r, i) => [i, r.model, r.measured ?? 'NaN', label(r.label)]);
  const measuredPlot = haveMeasured
    ? `, $data using ($1+0.2):3 with boxes lc rgb '#dd6b20' title 'measured (Nsight Compute)'`
    : '';
  return gnuplot(`${TERMINAL(1150, 480)}
${dataBlock('data', data)}
set style fill solid 0.85 border -1
set boxwidth 0.38
set logscale y
set ylabel '32-byte sectors (loads + stores)'
set xrange [-0.6:${rows.length - 0.4}]
set xtics rotate by -35 font ',12' nomirror
set ytics nomirror
set grid ytics lc rgb '#dddddd'
set key top right
plot $data using ($1-0.2):2:xtic(4) with boxes lc rgb '#2b6cb0' title 'model (checker/model.c)'${measuredPlot}
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
