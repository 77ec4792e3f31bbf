module example.com/brokenex

go 1.25
