C     A GO TO names the label of a parallel DO statement (a kernel run
C     again, as in the Livermore loops): no directive before that DO (the
C     jump would enter the parallel region); the loop inside can have one
C     (5,000 iterations: worth a region in each outer iteration).
      PROGRAM JUMPT
      INTEGER I, J, NREP, S
      NREP = 0
      S = 0
  100 DO 20 J = 1, 20
        DO 10 I = 1, 5000
          S = S + MOD(I*J, 7) + NREP
   10   CONTINUE
   20 CONTINUE
      NREP = NREP + 1
      IF (NREP .LT. 3) GO TO 100
      PRINT *, S
      END
