module example.com/stepbound

go 1.22
