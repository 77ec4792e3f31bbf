module genericjanitor

go 1.25
