-- AlterTable
ALTER TABLE "properties" ADD COLUMN     "count_dual_use_as_ai" BOOLEAN NOT NULL DEFAULT false;

