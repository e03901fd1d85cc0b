//go:build windows

package i18n

import "golang.org/x/sys/windows"

// systemLanguages are the user's display languages in order of preference
// ("es-ES", "en-US").
func systemLanguages() []string {
	l, err := windows.GetUserPreferredUILanguages(windows.MUI_LANGUAGE_NAME)
	if err != nil {
		return nil
	}
	return l
}
