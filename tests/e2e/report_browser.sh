#!/bin/sh
# tests/e2e/report_browser.sh - the four kinds of `ncsim report` page opened
# in headless Chromium (doc/report.md): one run, two runs side by side, a
# netbench load sweep, all on df-tiny, and a small Bayesian calibration. For each page, one Chromium run loads
# it from a file:// URL, writes a screenshot and dumps the DOM it built:
#   - no console message at all: the page has no script, so any line the
#     browser logs to the console (--enable-logging=stderr prints each as
#     "CONSOLE") is an error it met;
#   - the DOM holds every figure the page lists (13 for one run, 15 for two,
#     2 for the sweep, 5 for the calibration; the runs log their I/O, so the
#     storage figures are drawn, device utilisation over time among them, per
#     device too for one run of 5 burst buffers), each an inline <svg> with plotted elements: every
#     plot group (gnuplot_plot_N; gnuplot_plot_Na, _Nb, ... in a multiplot's
#     panels) has a coordinate that is not its key sample
#     (the key sample sits right of its label, in the label's row);
#   - nothing is loaded from elsewhere (no src, no link, no external href);
#   - the screenshot is a PNG.
# The checker of plotted elements is checked first on two hand-made SVGs, one
# with a key sample only. Chromium and gnuplot are part of the install command
# (README.md): without either the test fails, it does not skip.
srcdir=${NCSIM_SRCDIR:-$(cd "$(dirname "$0")/../.." && pwd)}
. "$srcdir/tests/e2e/check.sh"
. "$srcdir/tests/e2e/report_lib.sh"
cd "$work" || exit 1

chromium=${CHROMIUM:-$(command -v chromium || command -v chromium-browser)}
if [ -z "$chromium" ]; then
	fail "chromium is not installed (apt-get install chromium, as README.md's install command does)"
	finish report_browser
	exit 1
fi
if ! command -v gnuplot > /dev/null 2>&1; then
	fail "gnuplot is not installed (apt-get install gnuplot-nox, as README.md's install command does)"
	finish report_browser
	exit 1
fi

# figures DOM: one line per figure section of the dumped DOM: "ID note", or
# "ID GROUPS EMPTY" with the plot groups of its SVG and how many of them hold
# nothing but their key sample ("ID nosvg" if the figure has no SVG).
figures() {
	tr '\n\t' '  ' < "$1" | awk '
	# The coordinates of group text g that are not its key sample: 0 means nothing was plotted.
	function data_pairs(g,    kx, ky, n, t, x, y, s) {
		kx = -1
		if (match(g, /<g transform="translate\([0-9.]+,[0-9.]+\)"[^>]*> *<text>/)) {
			t = substr(g, RSTART + 24, RLENGTH)
			split(t, s, /[,)]/)
			kx = s[1] + 0; ky = s[2] + 0
			g = substr(g, 1, RSTART - 1) substr(g, RSTART + RLENGTH)
		}
		n = 0
		while (match(g, /[0-9]+\.[0-9]+,[0-9]+\.[0-9]+/)) {
			split(substr(g, RSTART, RLENGTH), s, ",")
			x = s[1] + 0; y = s[2] + 0
			if (kx < 0 || x < kx || y < ky - 10 || y > ky + 10)
				n++
			g = substr(g, RSTART + RLENGTH)
		}
		return n
	}
	# The length of the <g> element that starts at the beginning of s (its closing tag included).
	function group_len(s,    depth, pos, rest, o, c) {
		depth = 0; pos = 1
		for (;;) {
			rest = substr(s, pos)
			o = match(rest, /<g[ >]/) ? RSTART : 0
			c = index(rest, "</g>")
			if (c == 0)
				return length(s)
			if (o && o < c) {
				depth++; pos += o + 1
			} else {
				depth--; pos += c + 3
				if (depth == 0)
					return pos - 1
			}
		}
	}
	{
		n = split($0, sec, /<section id="fig-/)
		for (i = 2; i <= n; i++) {
			body = sec[i]
			id = substr(body, 1, index(body, "\"") - 1)
			end = index(body, "</section>")
			if (end)
				body = substr(body, 1, end)
			if (index(body, "class=\"note\"")) { print id, "note"; continue }
			if (!index(body, "<svg")) { print id, "nosvg"; continue }
			groups = 0; empty = 0
			while (match(body, /<g id="[^"]*gnuplot_plot_[0-9]+[a-z]*"/)) {
				body = substr(body, RSTART)
				len = group_len(body)
				groups++
				if (data_pairs(substr(body, 1, len)) == 0)
					empty++
				body = substr(body, len + 1)
			}
			print id, groups, empty
		}
	}'
}

# open PAGE NAME: Chromium loads PAGE; NAME.png (screenshot), NAME.dom (DOM), NAME.log (its stderr).
open_page() {
	HOME="$work/home" "$chromium" --headless --disable-gpu --no-sandbox --no-first-run \
		--user-data-dir="$work/chrome" --enable-logging=stderr --v=0 --hide-scrollbars \
		--window-size=900,700 --screenshot="$work/$2.png" --dump-dom "file://$work/$1" > "$2.dom" 2> "$2.log"
}

# check_page PAGE NAME FIGURES: the checks of the header, for a page that must draw FIGURES figures.
check_page() {
	open_page "$1" "$2"
	check "$2: Chromium loads the page" test -s "$2.dom"
	check "$2: no console message" sh -c "! grep -q 'CONSOLE' '$2.log'"
	grep 'CONSOLE' "$2.log"
	figures "$2.dom" > "$2.figs"
	check "$2: $3 figures in the DOM, each an SVG" test "$(awk '$2 != "note" && $2 != "nosvg"' "$2.figs" | wc -l)" = "$3"
	check "$2: every plot group of every figure has plotted elements" \
		awk '$2 == "nosvg" || ($2 != "note" && ($2 < 1 || $3 != 0)) { print "figure " $1 ": " $0; bad = 1 } END { exit bad }' "$2.figs"
	check "$2: nothing loaded from elsewhere" sh -c "! grep -qiE '<(img|link|iframe|script)|src=|href=\"(https?|file):' '$2.dom'"
	check "$2: a PNG screenshot" sh -c "test -s '$2.png' && head -c 8 '$2.png' | od -c | grep -q 'P   N   G'"
}

echo "== the checker of plotted elements"
mkdir -p home
key='<g transform="translate(752.26,30.91)" stroke="none"> <text>minimal</text> </g>'
printf '%s\n' "<section id=\"fig-a\"><figure><svg><g id=\"a-gnuplot_plot_1\">$key<g><path d=\"M760.65,27.01 L803.21,27.01\"></path></g></g></svg></figure></section>" > key-only.dom
printf '%s\n' "<section id=\"fig-b\"><figure><svg><g id=\"b-gnuplot_plot_1\">$key<g><path d=\"M760.65,27.01 L803.21,27.01 M129.31,334.30 L185.47,295.18\"></path></g></g><path d=\"M80.52,16.01 L80.52,395.00\"></path></svg></figure></section>" > data.dom
check "a group with its key sample only is empty" test "$(figures key-only.dom)" = "a 1 1"
check "a group with a line is not" test "$(figures data.dom)" = "b 1 0"

echo "== the runs"
printf '%s\n%s\n' '16 milc --iters 3 --msgsize 16K --compute 100 --config 256K' \
	'8 checkpoint --count 2 --period 1 --total 16M' > two.wkld
for p in random-node contiguous; do
	if ! "$ncsim" run two.wkld --placement $p --system df-tiny --seed 3 --io-log --no-wall-time --no-progress --out $p \
		> $p.log 2>&1; then
		cat $p.log
		fail "ncsim run two.wkld --placement $p"
	fi
done
for load in 0.1 0.3 0.5; do
	for routing in minimal ugal; do
		"$ncsim" netbench --system df-tiny --duration 20us --load $load --routing $routing --csv >> sweep.csv 2> nb.err ||
			fail "ncsim netbench --load $load --routing $routing: $(cat nb.err)"
	done
done
# A small Bayesian calibration (under a second) on examples/calibration's measurements.
small_bayes cal || fail "ncsim calibrate --bayes"
"$ncsim" report cal/bayes > r.out 2>&1 || { cat r.out; fail "ncsim report cal/bayes"; }
"$ncsim" report random-node > r.out 2>&1 || { cat r.out; fail "ncsim report random-node"; }
"$ncsim" report random-node contiguous -o two.html > r.out 2>&1 || { cat r.out; fail "ncsim report of two runs"; }
"$ncsim" report sweep.csv > r.out 2>&1 || { cat r.out; fail "ncsim report sweep.csv"; }

echo "== in Chromium"
check_page random-node/report.html one-run 13
check_page two.html two-runs 15
check_page sweep-report.html netbench 2
check_page cal/bayes/report.html calibration 5
if [ -n "$NCSIM_SCREENSHOTS" ]; then # keep the screenshots (the test's folder is removed at its end)
	mkdir -p "$NCSIM_SCREENSHOTS" && cp one-run.png two-runs.png netbench.png calibration.png "$NCSIM_SCREENSHOTS/"
fi

finish report_browser
