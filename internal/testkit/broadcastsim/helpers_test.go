package broadcastsim_test

import (
	"fmt"
	"time"
)

type timeDuration = time.Duration

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
