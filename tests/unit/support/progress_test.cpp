// The progress line's rules with an injected clock (no timed assertions): nothing when disabled
// (not a terminal, or --json), nothing in the first second, at most one redraw per interval, and
// the line erased at the end.
#include "teg/support/progress.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace teg {
namespace {

using namespace std::chrono_literals;

struct FakeClock {
  std::chrono::steady_clock::time_point now{};
  Progress::Clock function() {
    return [this] { return now; };
  }
};

TEST(Progress, QuietWhenNotATerminalOrJson) {
  std::ostringstream out;
  FakeClock clock;
  {
    Progress p(out, /*enabled=*/false, clock.function());
    for (int i = 0; i < 100; ++i) {
      clock.now += 1s;
      p.update("emulating blocks", static_cast<std::uint64_t>(i), 100);
    }
  }
  EXPECT_EQ(out.str(), "");
  // --json never wants it, whatever stderr is.
  EXPECT_FALSE(progressWanted(/*json=*/true));
}

TEST(Progress, NothingInTheFirstSecond) {
  std::ostringstream out;
  FakeClock clock;
  Progress p(out, true, clock.function());
  clock.now += 999ms;
  p.update("emulating blocks", 1, 10);
  EXPECT_EQ(out.str(), "");
  p.finish();
  EXPECT_EQ(out.str(), "");  // nothing drawn, nothing to erase
}

TEST(Progress, RedrawsAtMostOncePerInterval) {
  std::ostringstream out;
  FakeClock clock;
  Progress p(out, true, clock.function());
  clock.now += 1s;
  p.update("emulating blocks", 1, 4);
  EXPECT_EQ(out.str(), "\remulating blocks 1/4 (25 %)");
  clock.now += 99ms;
  p.update("emulating blocks", 2, 4);  // too soon: skipped
  EXPECT_EQ(out.str(), "\remulating blocks 1/4 (25 %)");
  clock.now += 1ms;
  p.update("emulating blocks", 3, 4);
  EXPECT_EQ(out.str(), "\remulating blocks 1/4 (25 %)\remulating blocks 3/4 (75 %)");
}

TEST(Progress, AShorterLineCoversTheLongerOneAndFinishErasesIt) {
  std::ostringstream out;
  FakeClock clock;
  Progress p(out, true, clock.function());
  clock.now += 2s;
  p.update("validating", 10, 100);  // "validating 10/100 (10 %)": 24 characters
  clock.now += 1s;
  out.str("");
  p.update("what-ifs", 1, 2);       // "what-ifs 1/2 (50 %)": 19, padded to 24
  EXPECT_EQ(out.str(), "\rwhat-ifs 1/2 (50 %)     ");
  out.str("");
  p.finish();
  EXPECT_EQ(out.str(), "\r" + std::string(24, ' ') + "\r");
  out.str("");
  p.finish();  // once only
  EXPECT_EQ(out.str(), "");
}

TEST(Progress, TheDestructorErasesTheLine) {
  std::ostringstream out;
  FakeClock clock;
  {
    Progress p(out, true, clock.function());
    clock.now += 1s;
    p.update("x", 1, 0);  // total unknown: the count alone
    EXPECT_EQ(out.str(), "\rx 1");
  }
  EXPECT_EQ(out.str(), "\rx 1\r   \r");
}

}  // namespace
}  // namespace teg
