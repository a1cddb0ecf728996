# a small custom size table for the CDCNW tests: mean 1000 bytes
1000
100 0.5
1000 0.8
3250 1
