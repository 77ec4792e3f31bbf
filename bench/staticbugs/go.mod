module staticbugs

go 1.26
