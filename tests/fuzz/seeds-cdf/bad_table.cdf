# a CDF whose sizes go backwards on line 4
100
50 0.5
40 1
