#!/usr/bin/env Rscript
# Writes the real data sets of [FIRST] Tables 3 and 4 that Debian packages as CSVs for banditfs
# (docs/first-real-data.md, "Data"). Needs r-base-core, r-cran-mlbench and r-cran-modeldata (scripts/install-deps.sh).
#
#   Rscript scripts/data/export_r.R results/data/first
#
# Every file has a header row and numeric columns only; the target is the last column. Binary targets are 0/1
# (1 = the class named in the column). Rows with a missing value are dropped (the paper: "after filtering out the
# instances with missing values"). Dots in column names become underscores.
#
#   file                 rows x p   target                source
#   boston_housing.csv    506 x 13  medv                  mlbench::BostonHousing (chas factor -> 0/1)
#   concrete.csv         1030 x 8   compressive_strength  modeldata::concrete (all 1030 rows, 25 duplicates kept)
#   meats.csv             215 x 100 fat                   modeldata::meats (x_001..x_100; water, protein dropped)
#   letter_a_s.csv       1537 x 16  letter_S (A=0, S=1)   mlbench::LetterRecognition, classes A and S only
#   breast_cancer.csv     683 x 9   malignant             mlbench::BreastCancer, complete cases, Id dropped
#   pima_diabetes2.csv    392 x 8   diabetes_pos          mlbench::PimaIndiansDiabetes2, complete cases
# Not in any Debian package, so not written: Auto MPG, Abalone (Table 3 / Table 2), Australian, Titanic (Table 4).

suppressPackageStartupMessages({
  library(mlbench)
  library(modeldata)
})

args <- commandArgs(trailingOnly = TRUE)
if (length(args) != 1) {
  stop("usage: Rscript scripts/data/export_r.R OUT_DIR", call. = FALSE)
}
out_dir <- args[[1]]
dir.create(out_dir, recursive = TRUE, showWarnings = FALSE)

# A factor whose levels are numbers ("0"/"1", "1".."10") -> those numbers, not the level codes.
level_number <- function(f) as.numeric(as.character(f))

write_set <- function(df, name, target, expect_n, expect_p) {
  df <- as.data.frame(df)
  names(df) <- gsub(".", "_", names(df), fixed = TRUE)
  target <- gsub(".", "_", target, fixed = TRUE)
  df <- df[, c(setdiff(names(df), target), target)]
  ok <- vapply(df, is.numeric, logical(1))
  if (!all(ok)) stop(name, ": non-numeric columns: ", paste(names(df)[!ok], collapse = ", "), call. = FALSE)
  if (anyNA(df)) stop(name, ": missing values left", call. = FALSE)
  n <- nrow(df)
  p <- ncol(df) - 1
  status <- if (n == expect_n && p == expect_p) "ok" else sprintf("MISMATCH (expected %d x %d)", expect_n, expect_p)
  path <- file.path(out_dir, paste0(name, ".csv"))
  write.csv(df, path, row.names = FALSE, quote = FALSE)
  cat(sprintf("%-16s %5d x %-3d target %-20s %s  -> %s\n", name, n, p, target, status, path))
  n == expect_n && p == expect_p
}

ok <- logical(0)

data(BostonHousing, package = "mlbench")
bh <- BostonHousing
bh$chas <- level_number(bh$chas)
ok <- c(ok, write_set(bh, "boston_housing", "medv", 506, 13))

data(concrete, package = "modeldata")
ok <- c(ok, write_set(concrete, "concrete", "compressive_strength", 1030, 8))

data(meats, package = "modeldata")
me <- as.data.frame(meats)
me <- me[, c(grep("^x_", names(me), value = TRUE), "fat")]
ok <- c(ok, write_set(me, "meats", "fat", 215, 100))

data(LetterRecognition, package = "mlbench")
lr <- LetterRecognition[LetterRecognition$lettr %in% c("A", "S"), ]
lr$letter_S <- as.numeric(lr$lettr == "S")
lr$lettr <- NULL
ok <- c(ok, write_set(lr, "letter_a_s", "letter_S", 1537, 16))

data(BreastCancer, package = "mlbench")
bc <- BreastCancer[complete.cases(BreastCancer), ]
bc$Id <- NULL
bc$malignant <- as.numeric(bc$Class == "malignant")
bc$Class <- NULL
for (col in setdiff(names(bc), "malignant")) bc[[col]] <- level_number(bc[[col]])
ok <- c(ok, write_set(bc, "breast_cancer", "malignant", 683, 9))

data(PimaIndiansDiabetes2, package = "mlbench")
pima <- PimaIndiansDiabetes2[complete.cases(PimaIndiansDiabetes2), ]
pima$diabetes_pos <- as.numeric(pima$diabetes == "pos")
pima$diabetes <- NULL
ok <- c(ok, write_set(pima, "pima_diabetes2", "diabetes_pos", 392, 8))

if (!all(ok)) stop("row or column counts differ from the paper's", call. = FALSE)
