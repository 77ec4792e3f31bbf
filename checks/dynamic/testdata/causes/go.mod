module causes

go 1.25
