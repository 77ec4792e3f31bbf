module recall

go 1.26
