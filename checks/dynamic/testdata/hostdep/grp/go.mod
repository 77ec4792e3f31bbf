module grp

go 1.25
