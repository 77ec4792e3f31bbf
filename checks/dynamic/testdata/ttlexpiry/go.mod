module ttlexpiry

go 1.25
