// Package audit checks the clock comments of finished games.
package audit
