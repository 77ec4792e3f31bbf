module realsuitedrv

go 1.25

require (
	cachedep v0.0.0
	polldep v0.0.0
	watchdep v0.0.0
)

replace (
	cachedep => ./cachedep
	polldep => ./polldep
	watchdep => ./watchdep
)
