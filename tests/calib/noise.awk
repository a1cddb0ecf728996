# noise.awk - a measurement trial made from a simulated OSU output: every
# figure of a data line times (1 + sd x z), z standard normal (Box-Muller),
# from awk's generator seeded with `seed`, so a test's measurements are the
# same on every run. Comment lines pass through.
#   awk -v seed=3 -v sd=0.02 -f noise.awk sim.txt > trial-3.txt
BEGIN { srand(seed); if (sd == "") sd = 0.02 }
/^#/ || NF < 2 { print; next }
{
	u1 = rand(); u2 = rand()
	if (u1 < 1e-12) u1 = 1e-12
	z = sqrt(-2 * log(u1)) * cos(6.283185307179586 * u2)
	$2 = sprintf("%.4f", $2 * (1 + sd * z))
	print
}
