package corpus

// The published sums, set here so the table stays out of the logic.
func init() {
	ReferenceSums = map[string]string{
		"dev/dev.ar":   "7d48aff707553f913dc4c0a372d624b54bf4144cf9069cb79ba875240c5b4892",
		"dev/dev.de":   "12af3b62be985a535c2f6a8d742d97bea429060c7bb1e494cded8beb7b0f6e9f",
		"dev/dev.en":   "6cbf26b7e4b03c1e7504028407cb5a77f18bd7b78cb59327116c3cccb8640111",
		"dev/dev.es":   "f4bd61dcf074e3daeb02a4935c8fc45529e89e97279492812216e64d67da3007",
		"dev/dev.fr":   "62bea66fca56be203765f24749c96cee3694a061c20e0f91b43478d26010e8fe",
		"dev/dev.it":   "45927fb4df88750a0a5787bd7e8164b8a72fb99850fd3bf28532fab69f38bfc6",
		"dev/dev.nl":   "6c796e1ed8090dbe8a101af6054242f437455ae4a8ac14d6cf27a8e14025f88d",
		"dev/dev.ro":   "b3d816c89a24755be67ded74d40ce467568022adf0242aedd527a37d6c8b638b",
		"dev/dev.ru":   "352348a8a7f78ec1a51d61942a8092397c57c3adcf7ad3bfe643488c2f0916c9",
		"dev/dev.zh":   "eb845516629cd7d2e2c3999a070bf805a9e1eaa61bba5a6a79cf167efde16ae8",
		"test/test.ar": "16bc38158d93e7d2ce45fd641b12874bb393f0df2b87bb05f3c2b31fe6c5bc0d",
		"test/test.de": "0e7819b4528849254ba01ce44380de7ff085a204f88c268492f272ed7a337547",
		"test/test.en": "6d2d218ea6f5b9d6fc779d4562b0cf0a44db5a432ffb6c6ba9c470bfbdff17bb",
		"test/test.es": "a039596f11a6f2283c93fb1f3361fb0e87e7025b96a9478c41926d00c2ee3004",
		"test/test.fr": "6d13c1c3dd8470742f7b689bd1454d6ee984557b5d91c3b279db41e6fec2ec0e",
		"test/test.it": "b6e88d6747eb9da2b6a08d1672365fc01cddde826d55c19e013bdf875069394a",
		"test/test.nl": "f8671781533ea9100e7afa249982a935662a4dda9b2e80d45e61d5ebd2a4077f",
		"test/test.ro": "c6fbb7b1a2545ee3a68eafac4ee5bb763876cbf4b3043d85463caa3abf1b87ee",
		"test/test.ru": "a9cce6ed60d05298ae94f8c72019c6ec459c77655b74ff24fab53fd1850a1e05",
		"test/test.zh": "877936cf56dd1372c856203623bd5c6afc6ef0e2848fd557eb55d51a19e43185",
	}
}
