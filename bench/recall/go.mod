module recall

go 1.26.0

require example.com/taskq v0.0.0

require (
	github.com/stretchr/testify v1.7.0
	golang.org/x/sync v0.24.0
)

require (
	github.com/davecgh/go-spew v1.1.0 // indirect
	github.com/pmezard/go-difflib v1.0.0 // indirect
	gopkg.in/yaml.v3 v3.0.0-20200313102051-9f266ea9e77c // indirect
)

replace example.com/taskq => ./dep/taskq
