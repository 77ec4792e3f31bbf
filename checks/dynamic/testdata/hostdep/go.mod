module hostdep

go 1.25

require grp v0.0.0

replace grp => ./grp
