module realsuite

go 1.25

require dep v0.0.0

replace dep => ./dep
