module leftover

go 1.22
