module github.com/stretchr/testify

go 1.20
