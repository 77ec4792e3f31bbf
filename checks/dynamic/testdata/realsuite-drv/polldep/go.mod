module polldep

go 1.25
