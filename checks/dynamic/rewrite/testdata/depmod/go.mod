module example.com/depmod

go 1.25

require (
	example.com/oldtick v0.0.0
	example.com/tick v0.0.0
)

replace example.com/tick => ./tick

replace example.com/oldtick => ./oldtick
