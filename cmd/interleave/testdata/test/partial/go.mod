module partial

go 1.24
