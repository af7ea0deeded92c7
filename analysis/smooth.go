package analysis

// WindowMeans averages ys over consecutive windows of n points and places
// each mean at the window's last x: per-update training figures (loss,
// gradient norms) are too noisy to read point by point. A last window
// shorter than n is dropped, so every point is a mean of n; n ≤ 1 returns
// the points unchanged.
func WindowMeans(xs, ys []float64, n int) (mx, my []float64) {
	if n <= 1 {
		return xs, ys
	}
	var sum float64
	for i, y := range ys {
		sum += y
		if (i+1)%n == 0 {
			mx, my = append(mx, xs[i]), append(my, sum/float64(n))
			sum = 0
		}
	}
	return mx, my
}
