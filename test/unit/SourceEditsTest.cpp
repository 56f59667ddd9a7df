#include "Rewrite/SourceEdits.h"
#include <gtest/gtest.h>

using launchopt::SourceEdits;

TEST(SourceEdits, AppliesReplacementsAndInsertionsInOffsetOrder) {
  SourceEdits E;
  E.replace(4, 3, "XYZ");
  E.insert(0, "<");
  E.insert(10, ">");
  auto Out = E.apply("abc def ghi");
  ASSERT_TRUE(static_cast<bool>(Out));
  EXPECT_EQ(*Out, "<abc XYZ gh>i");
}

TEST(SourceEdits, InsertionsAtOneOffsetKeepTheirOrder) {
  SourceEdits E;
  E.insert(1, "1");
  E.insert(1, "2");
  auto Out = E.apply("ab");
  ASSERT_TRUE(static_cast<bool>(Out));
  EXPECT_EQ(*Out, "a12b");
}

TEST(SourceEdits, OverlappingEditsAreAnError) {
  SourceEdits E;
  E.replace(0, 5, "x");
  E.replace(3, 2, "y");
  auto Out = E.apply("0123456789");
  EXPECT_FALSE(static_cast<bool>(Out));
  llvm::consumeError(Out.takeError());
}

TEST(SourceEdits, EditPastTheEndIsAnError) {
  SourceEdits E;
  E.replace(8, 5, "x");
  auto Out = E.apply("short");
  EXPECT_FALSE(static_cast<bool>(Out));
  llvm::consumeError(Out.takeError());
}

TEST(SourceEdits, MapsEditedOffsetsBackToTheOriginal) {
  // "abc def ghi" -> "<abc XYZW ghi"
  SourceEdits E;
  E.insert(0, "<");
  E.replace(4, 3, "XYZW");
  EXPECT_EQ(E.originalOffset(0), 0u);  // inside the insertion: its position
  EXPECT_EQ(E.originalOffset(1), 0u);  // 'a'
  EXPECT_EQ(E.originalOffset(3), 2u);  // 'c'
  EXPECT_EQ(E.originalOffset(6), 4u);  // inside "XYZW": the replaced range's start
  EXPECT_EQ(E.originalOffset(10), 8u); // 'g'
}

TEST(SourceEdits, TellsInsertedTextFromReplacedText) {
  // "abc def ghi" -> "<abc XYZW ghi"
  SourceEdits E;
  E.insert(0, "<");
  E.replace(4, 3, "XYZW");
  bool Inserted = false;
  E.originalOffset(0, &Inserted); // in "<": inserted where nothing was
  EXPECT_TRUE(Inserted);
  Inserted = false;
  E.originalOffset(6, &Inserted); // in "XYZW": a replacement of "def"
  EXPECT_FALSE(Inserted);
  E.originalOffset(2, &Inserted); // original text
  EXPECT_FALSE(Inserted);
}
