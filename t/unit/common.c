// SPDX-License-Identifier: GPL-2.0-only
/* common/: the helpers the host modules share, where they compute. */
#include "common/common.h"
#include "t/tap.h"

static bool test_ranges_text(void)
{
	static const long one[] = { 4 };
	static const long mixed[] = { 0, 1, 2, 5, 7, 8, 12 };
	static const long pairs[] = { 3, 4, 6 };
	char out[64];

	lsb_ranges_text(out, sizeof(out), NULL, 0);
	ASSERT_STREQ(out, "");
	lsb_ranges_text(out, sizeof(out), one, 1);
	ASSERT_STREQ(out, "4");
	lsb_ranges_text(out, sizeof(out), mixed, 7);
	ASSERT_STREQ(out, "0-2, 5, 7-8, 12");
	lsb_ranges_text(out, sizeof(out), pairs, 3);
	ASSERT_STREQ(out, "3-4, 6");
	return true;
}

static bool test_ranges_text_cut(void)
{
	static const long v[] = { 100, 200, 300, 400 };
	char out[10];

	lsb_ranges_text(out, sizeof(out), v, 4);
	ASSERT_STREQ(out, "100, 200,");
	lsb_ranges_text(out, 1, v, 4);
	ASSERT_STREQ(out, "");
	return true;
}

int main(void)
{
	tap_plan(2);
	TEST(test_ranges_text);
	TEST(test_ranges_text_cut);
	return tap_done();
}
