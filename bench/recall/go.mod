module recall

go 1.26.0

require example.com/taskq v0.0.0

require golang.org/x/sync v0.24.0

replace example.com/taskq => ./dep/taskq
