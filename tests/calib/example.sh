#!/bin/bash
# tests/calib/example.sh - examples/calibration/README.md as written: the
# calibration prints the parameter table the README shows, the prediction of
# osu-bibw ends with the loss it shows, and the starting point predicts as
# badly as it says. Calibration is deterministic, so the figures must match
# to the last digit; a change of the models that moves them must update the
# README too.
. "$(dirname "$0")/lib.sh"
cp -r "$src/examples/calibration" ex && cd ex || exit 2
"$ncsim" calibrate calibrate.conf -j 2 --no-progress --out cal >calibrate.txt 2>calibrate.err || { cat calibrate.err; exit 1; }
"$ncsim" predict cal/calibrated.conf calibrate.conf >predict.txt || exit 1
"$ncsim" predict base.conf calibrate.conf >base.txt || exit 1
# The README's first ``` block after "prints:" is the calibration's stdout.
awk '/prints:/ { want = 1 } want && /^```$/ { if (inside) exit; inside = 1; next } inside { print }' README.md >readme-calibrate.txt
check "the README shows what calibrate prints" diff -b readme-calibrate.txt calibrate.txt
check "the README's prediction loss ($(tail -1 predict.txt))" grep -qx "$(tail -1 predict.txt)" README.md
check "the README's loss of the starting point ($(tail -1 base.txt))" grep -q "\`$(tail -1 base.txt)\`" README.md
for f in calibrated.conf calibration.json history.csv; do check "cal/$f" test -s "cal/$f"; done
[ "$failed" -eq 0 ]
