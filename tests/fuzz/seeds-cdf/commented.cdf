# A size distribution with comments: the mean message size first,
# then `size cumulative_probability` rows.
150

  # sizes in bytes
10 0.25
100 0.5
# the largest messages
200 1
