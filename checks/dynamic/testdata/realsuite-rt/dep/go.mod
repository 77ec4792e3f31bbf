module dep

go 1.25
