//go:build race

package dgtmodel_test

// raceDivisor scales the default number of scenarios down under -race.
const raceDivisor = 4
