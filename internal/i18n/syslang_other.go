//go:build !windows

package i18n

// systemLanguages: elsewhere the environment (LC_ALL, LC_MESSAGES, LANG)
// is the system's language.
func systemLanguages() []string { return nil }
