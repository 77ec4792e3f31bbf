module suites

go 1.25

require github.com/stretchr/testify v1.7.0

replace github.com/stretchr/testify => ./faketestify
