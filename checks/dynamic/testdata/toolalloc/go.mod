module toolalloc

go 1.25
