# Issue 12, defect 5: every reader goes through base/util.c (xread_text, xread_file):
# directories, devices and FIFOs are refused before a byte is read, and files and
# lines longer than the readers' limits (1 GiB, 1 MiB) are errors naming the file and
# line. None of these may hang, grow without bound or leave an output folder.
sys=$src/tests/e2e/e2e-system.conf
cp "$src/examples/pingpong.ncptl" "$in/pp.ncptl"
mkfifo "$in/fifo.cdf" "$in/fifo.alloc"
ln -s /dev/zero "$in/dev-zero.wkld"
ln -s /dev/zero "$in/dev-zero.conf"
mkdir -p "$in/dir-sys.conf"
# A trace naming /dev/zero as its CDF table (it grew to 10 GB in 20 s): refused at once.
printf 'VEF3 2 10 0 0\nEXT CDCNW\n/dev/zero UNIFORM LOAD 1\n' >"$in/zero.vef"
hcase vef-cdf-dev-zero 1 '/dev/zero: cannot read the CDF file: not a regular file' -- \
	"$ncsim" run "$in/zero.vef" -n 2 --system "$sys" --out out
# A FIFO that nobody writes: refused, not waited on.
printf 'VEF3 2 10 0 0\nEXT CDCNW\nfifo.cdf UNIFORM LOAD 1\n' >"$in/fifo.vef"
hcase vef-cdf-fifo 1 'fifo.cdf: cannot read the CDF file: not a regular file' -- \
	"$ncsim" run "$in/fifo.vef" -n 2 --system "$sys" --out out
# The same table named by a program: the check at compile time says why, the run fails.
printf 'All tasks generate 10 messages of "/dev/zero" traffic.\n' >"$in/zerocdf.ncptl"
hcase program-cdf-dev-zero 1 'size-distribution file "/dev/zero" cannot be read: not a regular file' -- \
	"$ncsim" run "$in/zerocdf.ncptl" -n 2 --system "$sys" --out out
printf 'task 0 outputs file_data("/dev/zero").\n' >"$in/filedata.ncptl"
hcase file-data-dev-zero 1 'file "/dev/zero" (not a regular file' -- \
	"$ncsim" run "$in/filedata.ncptl" -n 2 --system "$sys" --out out
# Devices and directories on the command line are I/O errors (exit 2).
hcase system-device 2 'dev-zero.conf: cannot read system file: not a regular file' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/dev-zero.conf" --out out
hcase system-directory 2 'dir-sys.conf: cannot read system file: is a directory' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/dir-sys.conf" --out out
hcase workload-device 2 'not a regular file' -- "$ncsim" run "$in/dev-zero.wkld" --out out
printf '2 %s\n' "$in/pp.ncptl" >"$in/reads-one.wkld"
hcase alloc-fifo 2 'not a regular file' -- "$ncsim" run "$in/reads-one.wkld" --alloc "$in/fifo.alloc" --out out
# A line of 2 MiB in a system file: over the 1 MiB line limit, named by its line.
{ printf '[network]\nmodel = analytic\nx = '; head -c 2097152 /dev/zero | tr '\0' y; printf '\n'; } >"$in/long.conf"
hcase system-long-line 1 'long.conf:3: line longer than 1 MiB in system file' -- \
	"$ncsim" run "$in/pp.ncptl" -n 2 --system "$in/long.conf" --out out
# A trace of 1.1 GB (sparse: no disk used) is refused by its size, before it is read.
truncate -s 1100M "$in/huge.vef"
hcase trace-too-large 1 'huge.vef: cannot read the trace: larger than 1 GiB' -- \
	"$ncsim" run "$in/huge.vef" -n 2 --system "$sys" --out out
# A workload line with a million options (it took quadratic time): over the line limit;
# under it, 300,000 options are over the limit of words on a job line. Both at once.
{ printf '2 pp.ncptl'; head -c 1000000 /dev/zero | tr '\0' a | sed 's/a/ -a/g'; printf '\n'; } >"$in/million.wkld"
hcase workload-million-options 1 'million.wkld:1: line longer than 1 MiB' -- "$ncsim" run "$in/million.wkld" --out out
{ printf '2 pp.ncptl'; head -c 300000 /dev/zero | tr '\0' a | sed 's/a/ -a/g'; printf '\n'; } >"$in/many.wkld"
hcase workload-many-options 1 'many.wkld:1: 300002 words on one job line, more than the 4096' -- \
	"$ncsim" run "$in/many.wkld" --out out
