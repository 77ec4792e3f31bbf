module farjump

go 1.25
