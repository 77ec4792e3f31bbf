module sleepsync

go 1.25
