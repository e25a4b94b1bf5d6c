#!/bin/bash
# 12 lab-03 submissions (make-class.sh), JOBS=1 then JOBS=2, on the idle 2-core VM
cd /work/main
rm -rf /tmp/gm2/class /tmp/gm2/out-*
docs/results/vm-2026-11-24-grade-scale/make-class.sh /tmp/gm2/class > /tmp/gm2/make-class.log 2>&1
make --no-print-directory BUILD=build-lead BACKEND=emu grade-tools > /tmp/gm2/tools.log 2>&1
echo "commit $(git rev-parse --short HEAD), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores"
for j in 1 2; do
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  s=$(date +%s.%N)
  make --no-print-directory BUILD=build-lead grade SUBMISSIONS=/tmp/gm2/class LAB=03 OUT=/tmp/gm2/out-$j JOBS=$j > /tmp/gm2/jobs$j.log 2>&1
  rc=$?
  e=$(date +%s.%N)
  echo "JOBS=$j exit $rc, make grade wall $(awk "BEGIN{printf \"%.1f\", $e-$s}") s"
  grep -E "graded in|per submission" /tmp/gm2/jobs$j.log | tail -2
  echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
done
cut -d, -f1-6 /tmp/gm2/out-1/grades.csv | sort > /tmp/gm2/g1; cut -d, -f1-6 /tmp/gm2/out-2/grades.csv | sort > /tmp/gm2/g2
cmp /tmp/gm2/g1 /tmp/gm2/g2 && echo "grades.csv (student, lab, kernel, points, max, verdict) identical for JOBS=1 and JOBS=2"
