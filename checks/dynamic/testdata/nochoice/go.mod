module nochoice

go 1.25
