module realsuite

go 1.25

require (
	dep v0.0.0
	go.uber.org/goleak v1.3.0
)

replace dep => ./dep

replace go.uber.org/goleak => ./fakegoleak
