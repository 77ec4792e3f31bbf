module realsuitedrv

go 1.25

require polldep v0.0.0

replace polldep => ./polldep
